"""docker-compose.yml, the Makefile and the README stay in step with the code (Docker itself is not run here)."""

from __future__ import annotations

import importlib.util
import re
import shlex
import sys
from pathlib import Path

import pytest
import yaml

from app.cli import build_parser
from workers.settings import ENV_NAMES

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def shell_of(service: dict) -> list[str]:
    """The words of a service's command (its ``sh -c`` script split on ``&&``, last part)."""
    command = service["command"]
    script = command[-1] if isinstance(command, list) else command
    return shlex.split(script.split("&&")[-1].replace("exec ", "", 1))


def test_redis_keeps_an_append_only_file(compose):
    command = compose["services"]["redis"]["command"]
    assert "--appendonly" in command and command[command.index("--appendonly") + 1] == "yes"
    assert any(volume.endswith(":/data") for volume in compose["services"]["redis"]["volumes"])


def test_the_api_runs_gunicorn_with_threads_on_the_wsgi_app(compose):
    words = shell_of(compose["services"]["api"])
    assert words[0] == "gunicorn"
    assert words[words.index("--worker-class") + 1] == "gthread"
    module, _, attribute = words[-1].partition(":")
    assert importlib.util.find_spec(module) is not None
    assert re.search(rf"^{attribute} = create_app\(\)", (ROOT / "app" / "wsgi.py").read_text(), re.M)
    assert (Path(sys.executable).parent / "gunicorn").exists()


def test_the_worker_runs_the_cosmic_worker_command(compose):
    words = shell_of(compose["services"]["worker"])
    assert words[:2] == ["cosmic", "worker"]
    assert build_parser().parse_args(words[1:]).func.__name__ == "cmd_worker"


def test_compose_sets_only_variables_the_service_reads(compose):
    service_env = compose["x-service"]["environment"]
    ours = {name for name in service_env if name.startswith(("COSMIC_", "REDIS_"))}
    assert ours <= set(ENV_NAMES.values())
    assert service_env["REDIS_URL"].startswith("redis://redis:")


def test_the_readme_documents_every_variable_and_the_two_commands():
    readme = (ROOT / "README.md").read_text()
    for name in ENV_NAMES.values():
        assert f"`{name}`" in readme, name
    assert "make run" in readme and "make test" in readme and "docs/engine.md" in readme
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^run:", makefile, re.M) and re.search(r"^test:", makefile, re.M)
    assert "cosmic serve" in makefile
