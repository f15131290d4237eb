from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from helpers import make_repo, pin_git_env
from hypothesis import HealthCheck, settings

# No per-example deadline (a shared CI machine is slow now and then); in CI the
# examples are derived from each test's name, so a run can be repeated exactly.
settings.register_profile("chunkgate", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", parent=settings.get_profile("chunkgate"), derandomize=True, print_blob=True
)
# Before a release: CHUNKGATE_HYPOTHESIS=release runs each property 50 times longer.
settings.register_profile(
    "release", parent=settings.get_profile("chunkgate"), max_examples=5_000, print_blob=True
)
_PROFILE = os.environ.get("CHUNKGATE_HYPOTHESIS") or ("ci" if os.environ.get("CI") else "chunkgate")
settings.load_profile(_PROFILE)

# bm25s and datasketch (eval, CG502) load numpy, whose OpenBLAS starts worker
# threads, and bm25s starts tqdm's monitor thread: a signal sent to the test
# process could then be delivered to one of them, and test_gate_inputs checks
# that SIGINT is held back while the worker pool starts. One thread stays one.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
# A shell starts a background job (`pytest &` in a script) with SIGINT ignored, and the
# chunkgate processes the tests start would inherit that: the Ctrl-C tests need it handled.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
try:
    import tqdm

    tqdm.tqdm.monitor_interval = 0
except ImportError:  # pragma: no cover - the test extras install it with bm25s
    pass


@pytest.fixture
def git_repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path)


@pytest.fixture
def cli_repo(git_repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``git_repo`` as the working folder of in-process command runs: git's environment
    pinned, and not under GitHub Actions (whose output format would be chosen)."""
    pin_git_env(monkeypatch)
    monkeypatch.chdir(git_repo)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    return git_repo


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    # Parsed configs are cached under the user's cache folder; tests (and the
    # chunkgate processes they start) use one of their own.
    os.environ["CHUNKGATE_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
