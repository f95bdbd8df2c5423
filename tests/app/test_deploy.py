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
    """The words of a service's command (a list, or a ``sh -c`` script's last ``&&`` part)."""
    command = service["command"]
    if isinstance(command, list) and command[:2] != ["sh", "-c"]:
        return list(command)
    script = command[-1] if isinstance(command, list) else command
    return shlex.split(script.split("&&")[-1].replace("exec ", "", 1))


def test_redis_keeps_an_append_only_file(compose):
    command = compose["services"]["redis"]["command"]
    assert "--appendonly" in command and command[command.index("--appendonly") + 1] == "yes"
    assert any(volume.endswith(":/data") for volume in compose["services"]["redis"]["volumes"])


def test_the_api_runs_gunicorn_with_the_shipped_gevent_settings_on_the_wsgi_app(compose):
    """The container, like `cosmic serve`, takes gunicorn.conf.py's settings: gevent workers, bounded requests."""
    words = shell_of(compose["services"]["api"])
    assert words[0] == "gunicorn"
    assert "--worker-class" not in words and "--threads" not in words and "--limit-request-line" not in words
    config: dict = {}
    exec((ROOT / "gunicorn.conf.py").read_text(), config)
    assert config["worker_class"] == "app.servers.GeventWorker" and config["limit_request_line"] == 8190
    assert compose["services"]["api"]["ulimits"]["nofile"]["soft"] > 2 * config["worker_connections"]
    assert 'CMD ["gunicorn", "--bind", "0.0.0.0:8000", "app.wsgi:app"]' in (ROOT / "Dockerfile").read_text()
    module, _, attribute = words[-1].partition(":")
    assert importlib.util.find_spec(module) is not None
    assert re.search(rf"^{attribute} = build\(\)", (ROOT / "app" / "wsgi.py").read_text(), re.M)
    assert (Path(sys.executable).parent / "gunicorn").exists()


def test_the_worker_runs_the_cosmic_worker_command(compose):
    words = shell_of(compose["services"]["worker"])
    assert words[:2] == ["cosmic", "worker"]
    assert build_parser().parse_args(words[1:]).func.__name__ == "cmd_worker"


def test_compose_sets_only_variables_the_service_reads(compose):
    service_env = compose["x-service"]["environment"]
    ours = {name for name in service_env if name.startswith(("COSMIC_", "REDIS_", "RQ_"))}
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


def test_the_containers_run_one_image_built_once_from_the_checkout(compose):
    """15.18: no copy of the checkout and no install at every start; the build context leaves out .venv."""
    for name in ("api", "worker"):
        service = compose["services"][name]
        assert service["build"] == "." and service["image"]
        assert "volumes" not in service
        assert "pip install" not in " ".join(map(str, service["command"]))
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert dockerfile.startswith("#") and "FROM python:3.11" in dockerfile
    assert "pip install --no-deps -e ." in dockerfile and "USER cosmic" in dockerfile
    for copied in re.findall(r"^COPY (\S+) ", dockerfile, re.M):
        assert copied.startswith("--from=") or (ROOT / copied).exists(), copied
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".venv", ".git", "tests", "data"} <= set(ignored)


def test_the_image_runs_the_engine_compiled_in_a_build_stage_not_the_hosts_build():
    dockerfile = (ROOT / "Dockerfile").read_text()
    stages = re.findall(r"^FROM (\S+)(?: AS (\S+))?$", dockerfile, re.M)
    assert stages[0] == ("python:3.11", "compiled-engine") and stages[-1][0] == "python:3.11-slim"
    assert "RUN python scripts/compile_engine.py" in dockerfile
    assert "COPY --from=compiled-engine /srv/cosmic/engine ./engine" in dockerfile
    assert "['optional-dependencies']['compile']" in dockerfile  # the build tools pyproject.toml names
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {"build", "**/*.so", "engine/_compiled.json"} <= set(ignored)


def test_the_api_is_published_on_this_machine_only_and_the_worker_has_a_health_check(compose):
    assert compose["services"]["api"]["ports"] == ["127.0.0.1:8000:8000"]
    check = compose["services"]["worker"]["healthcheck"]["test"]
    assert check[:4] == ["CMD", "python", "-m", "workers.health"]
    assert importlib.util.find_spec("workers.health") is not None


def test_the_worker_health_check_says_unhealthy_without_a_live_worker(monkeypatch, capsys):
    from workers import health
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")  # nothing listens there
    assert health.main([]) == 1
    assert "unhealthy" in capsys.readouterr().err


# --- the `cluster` profile (issue 13) -------------------------------------------------------------

CLUSTER_NODES = ("redis-node-1", "redis-node-2", "redis-node-3")


def test_the_cluster_profile_has_three_cluster_nodes_with_their_own_files(compose):
    for name in CLUSTER_NODES:
        node = compose["services"][name]
        assert node["profiles"] == ["cluster"]
        command = node["command"]
        assert command[command.index("--cluster-enabled") + 1] == "yes"
        assert command[command.index("--appendonly") + 1] == "yes"
        assert command[command.index("--cluster-announce-hostname") + 1] == name
        assert node["volumes"] == [f"{name}:/data"] and name in compose["volumes"]


def test_the_cluster_one_shot_joins_exactly_the_three_nodes(compose):
    create = compose["services"]["redis-cluster-create"]
    script = create["command"][-1]
    assert create["profiles"] == ["cluster"] and create["restart"] == "no"
    assert "redis-cli --cluster create" in script and "--cluster-yes" in script
    assert re.findall(r"getent hosts (\S+)", script) == list(CLUSTER_NODES)
    assert set(create["depends_on"]) == set(CLUSTER_NODES)


def test_the_cluster_services_run_the_same_commands_on_the_cluster_and_a_queue_redis(compose):
    from workers.connections import cluster_nodes, is_cluster_url
    from workers.settings import Settings
    services = compose["services"]
    queue = services["redis-queue"]
    assert "--cluster-enabled" not in queue["command"] and queue["profiles"] == ["cluster"]
    for name, plain in (("api-cluster", "api"), ("worker-cluster", "worker")):
        service = services[name]
        assert service["profiles"] == ["cluster"] and service["command"] == services[plain]["command"]
        env = {key: str(value) for key, value in service["environment"].items()}
        assert is_cluster_url(env["REDIS_URL"])
        assert [host for host, port in cluster_nodes(env["REDIS_URL"])] == list(CLUSTER_NODES)
        assert env["RQ_REDIS_URL"].startswith("redis://redis-queue:")
        assert set(env) <= set(ENV_NAMES.values())
        settings = Settings.from_env({**env, "COSMIC_ADMIN_TOKEN": "secret"})  # the code accepts the pair
        assert settings.queue_url == env["RQ_REDIS_URL"]
        assert service["depends_on"]["redis-cluster-create"]["condition"] == "service_completed_successfully"
        assert service["depends_on"]["redis-queue"]["condition"] == "service_healthy"
    assert services["api-cluster"]["ports"] == ["127.0.0.1:8001:8000"]
    assert "profiles" not in services["api"] and "profiles" not in services["worker"]  # the default stays as it was
