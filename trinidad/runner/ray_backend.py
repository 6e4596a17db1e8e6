"""The Ray backend of ``trinidad run`` (trinidad.runner): one Ray task a shard, each writing its
shard with :func:`trinidad.runner.shards.run_shard` (the local backend's chunks and writer), on a
local Ray or a cluster (with its token, when it asks for one)."""

from __future__ import annotations

import os
from pathlib import Path

from trinidad.experiment import ExperimentError
from trinidad.runner.shards import run_shard


def _ray_token_available() -> bool:
    """A Ray authentication token this process can present: RAY_AUTH_TOKEN, the file named by
    RAY_AUTH_TOKEN_PATH, or Ray's default ~/.ray/auth_token (written by ``ray start`` or ``ray
    get-auth-token --generate`` on this machine, or copied from the cluster's head)."""
    if os.environ.get("RAY_AUTH_TOKEN"):
        return True
    p = os.environ.get("RAY_AUTH_TOKEN_PATH")
    return Path(p).is_file() if p else (Path.home() / ".ray" / "auth_token").is_file()


def _reachable(address: str, timeout_s: float = 5.0) -> None:
    """One line, at once, when nothing listens at ``address`` (HOST:PORT): Ray itself would retry
    for minutes."""
    import socket

    host, _, port = address.rpartition(":")
    if address.startswith("ray://") or not port.isdigit():
        return  # a Ray Client or an address Ray resolves itself ("auto"): Ray's own checks
    try:
        with socket.create_connection((host or "127.0.0.1", int(port)), timeout=timeout_s):
            pass
    except OSError as e:
        raise ExperimentError(f"--address: nothing answers at {address} ({e.strerror or e}); start the cluster with "
                              "`ray start --head` on that machine, or leave --address out for a local Ray") from None


def ray_connect(address: str | None, workers: int) -> bool:
    """Join the Ray cluster at ``address`` (or start a local Ray with ``workers`` CPUs) before the
    run writes anything; True when this call started or joined it (and must shut it down).

    Current Ray turns token authentication on for a cluster started where a token exists, and a
    driver joining it must say so (RAY_AUTH_MODE=token) or it cannot connect: with a token at hand
    and no mode set, the mode is set for this process, before Ray is first imported (Ray reads its
    mode and token once per process: a program that imported Ray earlier sets RAY_AUTH_MODE
    itself). A cluster that cannot be reached is one line naming the address and what it needs."""
    if address:
        _reachable(address)
    set_mode = bool(address) and "RAY_AUTH_MODE" not in os.environ and _ray_token_available()
    if set_mode:  # before Ray reads its configuration (at import)
        os.environ["RAY_AUTH_MODE"] = "token"
    try:
        import ray
    except ImportError:
        raise ExperimentError("backend: ray needs the ray extra: pip install 'trinidad-sim[ray]'") from None
    if ray.is_initialized():
        return False
    try:
        ray.init(address=address, num_cpus=None if address else workers, include_dashboard=False,
                 log_to_driver=False, ignore_reinit_error=True)
    except (ConnectionError, RuntimeError, ValueError) as e:
        why = (str(e).strip().splitlines() or [type(e).__name__])[0]
        raise ExperimentError(f"--address: cannot join the Ray cluster at {address or 'local'} ({why}); start it with "
                              "`ray start --head`, and where it uses token authentication give this machine its token "
                              "(RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH or ~/.ray/auth_token, see `ray get-auth-token`)") from None
    return True


def run_ray(exp_doc: dict, players, out: Path, todo: list, tick) -> None:
    """One Ray task per shard on the Ray this process has joined (:func:`ray_connect`)."""
    import ray

    task = ray.remote(num_cpus=1)(_ray_shard)
    players_ref = ray.put(players)
    refs = {task.remote(exp_doc, players_ref, str(out.resolve()), vi, n, k, a, c): c for (vi, n, k, a, c) in todo}
    pending = list(refs)
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for ref in ready:
            ray.get(ref)
            tick(refs[ref])


def _ray_shard(exp_doc: dict, players, out: str, vi: int, n: int, k: int, a: int, c: int) -> int:
    run_shard(exp_doc, players, out, vi, n, k, a, c, 1)
    return c
