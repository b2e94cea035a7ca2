"""One real Dask cluster for the module's tests: a scheduler and two workers on 127.0.0.1 (tests/cluster/local.py)."""
from __future__ import annotations

import pytest

pytest.importorskip("distributed", reason="the cluster extra (pip install 'pbem[cluster]'); make test installs it")


@pytest.fixture(scope="session")
def cluster(tmp_path_factory):
    from .local import local_cluster

    with local_cluster(2, tmp_path_factory.mktemp("dask")) as address:
        yield address
