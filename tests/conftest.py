from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import make_repo
from hypothesis import HealthCheck, settings

# No per-example deadline (a shared CI machine is slow now and then); in CI the
# examples are derived from each test's name, so a run can be repeated exactly.
settings.register_profile("chunkguard", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", parent=settings.get_profile("chunkguard"), derandomize=True, print_blob=True
)
settings.load_profile("ci" if os.environ.get("CI") else "chunkguard")


@pytest.fixture
def git_repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path)
