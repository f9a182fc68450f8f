"""``python -m engine serve``: start the review app on a workspace folder (``streamlit run
ui/served.py``: ui/app.py, with the server refusing uploads from sessions that have not signed in
and serving no metrics). It listens on this machine only (127.0.0.1) unless ``--address`` names
another address, which is the opt-in to serve a team: it is refused, in one line with the fix,
while the folder has no account (``python -m engine accounts add``), since with accounts everyone
signs in and works under a role (SECURITY.md, "Serving the app to a team"). ``make run`` and
``make serve`` call it."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from engine.cli.accounts import workspace_arg
from storage.accounts import Accounts, idle_timeout, local_only

ROOT = Path(__file__).resolve().parents[2]
LOCAL = "127.0.0.1"


def register(p: argparse.ArgumentParser) -> None:
    workspace_arg(p)
    p.add_argument(
        "--address",
        default=LOCAL,
        help="the address to listen on (default 127.0.0.1: this machine only); another one, e.g. 0.0.0.0, "
        "serves a team and needs accounts",
    )
    p.add_argument("--port", type=int, default=8501, help="the port (default 8501)")
    p.add_argument(
        "--idle-hours",
        type=float,
        help="sign a session out after this many hours without a click (default: $RFP_SESSION_IDLE_HOURS, else 8)",
    )
    p.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    store = Path(args.store).resolve()
    env = dict(os.environ, RFP_WORKSPACE=str(store))
    if args.idle_hours is not None:
        env["RFP_SESSION_IDLE_HOURS"] = os.environ["RFP_SESSION_IDLE_HOURS"] = str(args.idle_hours)
    idle_timeout()  # a bad value is refused here, before the app starts
    accounts = Accounts(store)
    try:
        team = accounts.exist()  # a damaged accounts file is its one error line, never "no accounts"
    finally:
        accounts.close()
    if not local_only(args.address) and not team:
        raise ValueError(
            f"{store}: there is no account in this folder, so the app will not listen on {args.address} "
            f"(beyond this machine); add one first (`python -m engine accounts add NAME --role lead --store {store}`), "
            "or leave out --address"
        )
    command = [sys.executable, "-m", "streamlit", "run", str(ROOT / "ui" / "served.py")]
    command += ["--server.address", args.address, "--server.port", str(args.port)]
    command += ["--server.headless", "true", "--browser.gatherUsageStats", "false"]  # whatever the folder
    print(
        f"serving {store} on http://{args.address}:{args.port}"
        + (" (everyone signs in)" if team else " (this machine only)"),
        file=sys.stderr,
        flush=True,
    )
    os.chdir(ROOT)  # .streamlit/config.toml (the theme, no usage statistics) is read from here
    os.execve(sys.executable, command, env)  # the app is this process from now on: Ctrl-C stops it
    return 0  # not reached
