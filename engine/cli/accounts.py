"""``python -m engine accounts …``: the accounts of a workspace served to a team (engine/app/accounts.py;
SECURITY.md, "Serving the app to a team"). ``add NAME --role lead|reviewer|expert`` and ``passwd
NAME`` ask for the password twice (getpass: it is not echoed), or read it from the first line of
standard input with ``--password-stdin`` (scripts); ``list`` prints each name, role and times (never
a hash); ``remove NAME``. The commands write ``accounts.sqlite`` in SQLite transactions, so they
run beside the app: a removed account is signed out at its next click."""

from __future__ import annotations

import argparse
import getpass
import os
import sys

from engine.core.accounts import Role
from storage.accounts import Accounts


def workspace_arg(p: argparse.ArgumentParser) -> None:
    """``--store``: the app's workspace folder (``$RFP_WORKSPACE``, else ./store), where the accounts live."""
    p.add_argument(
        "--store",
        default=os.environ.get("RFP_WORKSPACE")
        or "store",  # engine/cli/common.py's default (not imported: it loads models' modules)
        help="the app's workspace folder (default: $RFP_WORKSPACE, else ./store)",
    )


def register(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="accounts_command", required=True)
    add = sub.add_parser("add", help="add an account (the password is asked for twice)")
    add.add_argument("name", metavar="NAME", help="the name the person's work is recorded under")
    add.add_argument("--role", required=True, type=str.lower, choices=[r.value for r in Role])
    _password_stdin(add)
    add.set_defaults(func=cmd_add)
    listed = sub.add_parser("list", help="the accounts: name, role, created, password changed, last sign-in")
    listed.set_defaults(func=cmd_list)
    remove = sub.add_parser("remove", help="remove an account (signed out at its next click)")
    remove.add_argument("name", metavar="NAME")
    remove.set_defaults(func=cmd_remove)
    passwd = sub.add_parser("passwd", help="set a new password (and clear the failed sign-ins under the name)")
    passwd.add_argument("name", metavar="NAME")
    _password_stdin(passwd)
    passwd.set_defaults(func=cmd_passwd)
    for each in (add, listed, remove, passwd):
        workspace_arg(each)


def _password_stdin(p: argparse.ArgumentParser) -> None:
    p.add_argument("--password-stdin", action="store_true", help="read the password from standard input's first line")


def password(args: argparse.Namespace) -> str:
    """The new password: standard input's first line (``--password-stdin``), else asked twice."""
    if args.password_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    if not sys.stdin.isatty():
        raise ValueError("no terminal to ask the password on; pipe it with --password-stdin")
    first = getpass.getpass(f"password for {args.name}: ")
    if getpass.getpass("again: ") != first:
        raise ValueError("the two passwords differ; nothing was changed")
    return first


def cmd_add(args: argparse.Namespace) -> int:
    account = Accounts(args.store).add(args.name, Role(args.role), password(args))
    print(f"added {account.name} ({account.role.value}) to {args.store}")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    accounts = Accounts(args.store).list()
    if not accounts:
        print(f"no accounts in {args.store}: the app serves this machine only (`accounts add` makes one)")
    for a in accounts:
        print(
            f"{a.name}\t{a.role.value}\tcreated {a.created}\tpassword {a.password_changed}\t"
            f"last sign-in {a.last_sign_in or 'never'}"
        )
    return 0


def cmd_remove(args: argparse.Namespace) -> int:
    Accounts(args.store).remove(args.name)
    print(f"removed {args.name} from {args.store}")
    return 0


def cmd_passwd(args: argparse.Namespace) -> int:
    accounts = Accounts(args.store)
    if accounts.get(args.name) is None:  # said before the password is asked for
        raise ValueError(f"{accounts.path}: no account named {args.name!r}; `accounts list` shows them")
    accounts.passwd(args.name, password(args))
    print(f"new password for {args.name} in {args.store}")
    return 0
