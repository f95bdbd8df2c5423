"""A summary of why tests were skipped, grouped, at the end of a run (issue 28.6).

`-rs` would print one line per skipped test (hundreds without REDIS_URL); this prints one line per
reason with how many tests it skipped, most first, so a newcomer sees at a glance what did not run
and what would run it. Loaded by pyproject's ``addopts`` (``-p tests.skipsummary``).
"""

from __future__ import annotations

from collections import Counter


def skip_reason(report) -> str:
    """The reason a skipped test's report gives, without pytest's ``Skipped: `` prefix."""
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
    return reason.removeprefix("Skipped: ")


def grouped(reports) -> list[tuple[int, str]]:
    """(count, reason) for every reason, most frequent first, then by reason."""
    counts = Counter(skip_reason(report) for report in reports)
    return sorted(((count, reason) for reason, count in counts.items()), key=lambda item: (-item[0], item[1]))


def pytest_terminal_summary(terminalreporter):
    skipped = terminalreporter.stats.get("skipped", [])
    if not skipped:
        return
    groups = grouped(skipped)
    terminalreporter.write_sep("=", f"{len(skipped)} skipped, for {len(groups)} reason{'s' if len(groups) > 1 else ''}")
    width = len(str(groups[0][0]))
    for count, reason in groups:
        terminalreporter.write_line(f"{count:>{width}}  {reason}")
