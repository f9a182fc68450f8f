"""``python -m engine review packet-export|packet-import …``: the expert's packet from the command
line (engine/review/packet.py). ``packet-export`` writes the rows a person holds as a workbook for
them to fill in without the app, and the review store records it (whom it is for, its rows and
their versions, the file's digest); ``packet-import`` makes each filled row a decision by the
person the store recorded for that packet (never a name in the workbook), on the rows assigned to
them now. A row changed since the packet was made is a conflict: listed, never overwritten;
``--take-packet ID,ID`` settles those rows with the packet's answer (a new decision), the others
keep theirs. A bad packet (read within the workbook limits, ``--max-*``) is refused with one
``error:`` line and changes nothing."""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.app.workspace import Workspace
from engine.cli.projects import find_project
from engine.cli.projects import questionnaire_args as _target
from engine.core.files import write_atomic
from engine.core.limits import Limits, add_limit_args
from engine.core.people import person_name
from engine.core.types import FileProblem
from engine.review.packet import apply_packet, held_by, packet_bytes, packet_name, read_packet, resolve


def register(sub) -> None:
    out = sub.add_parser("packet-export", help="write the rows a person holds as a workbook for them to fill in")
    _target(out)
    out.add_argument("--to", required=True, metavar="NAME", help="the person (or group) whose rows go in it")
    out.add_argument("--out", metavar="FILE", help="where to write it (default: '<questionnaire> - NAME packet.xlsx')")
    out.set_defaults(func=cmd_export)
    back = sub.add_parser("packet-import", help="make a filled packet's rows that person's decisions")
    _target(back)
    back.add_argument("packet", metavar="PACKET", help="the filled packet (.xlsx)")
    back.add_argument(
        "--take-packet",
        metavar="ID,ID",
        default="",
        help="rows in conflict (decided by someone else since) to settle with the packet's answer",
    )
    add_limit_args(back)
    back.set_defaults(func=cmd_import)


def cmd_export(args: argparse.Namespace) -> int:
    ws = Workspace(args.store)
    project = find_project(ws, args.project)
    review = ws.review(project.id)
    person = person_name(args.to, "--to")
    try:
        data = packet_bytes(review, person)
    except ValueError as exc:
        raise FileProblem(project.file_name, str(exc), "nothing was written") from None
    out = Path(args.out) if args.out else Path(packet_name(review, person))
    write_atomic(out, data)
    rows = len(held_by(review, person))
    print(f"{out}: the packet of {person}, {rows} row{'s' if rows != 1 else ''} of {project.file_name}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    ws = Workspace(args.store)
    project = find_project(ws, args.project)
    review = ws.review(project.id)
    packet = read_packet(args.packet, review, Limits.from_args(args))  # PacketRefused: one error line, nothing written
    done = apply_packet(review, packet)
    take = {r.strip().casefold() for r in args.take_packet.split(",") if r.strip()}
    settled = []
    for conflict in done.conflicts:
        if conflict.row.id.casefold() in take or conflict.row.key.casefold() in take:
            resolve(review, conflict, take_packet=True)
            settled.append(conflict.row.id)
    print(
        f"{packet.path.name}: {len(done.decided)} decision{'s' if len(done.decided) != 1 else ''} by {done.person}, "
        f"{done.comments} comment{'s' if done.comments != 1 else ''}, {done.empty} row{'s' if done.empty != 1 else ''} "
        f"left empty, {len(done.conflicts)} conflict{'s' if len(done.conflicts) != 1 else ''}"
        + (f" ({len(settled)} settled with the packet's answer)" if settled else "")
    )
    for c in done.conflicts:
        if c.row.id in settled:
            continue
        print(
            f"conflict {c.row.id}: the packet says {c.row.choice or '—'} {_flat(c.row.answer or '')!r}; "
            f"the row now holds {c.now_choice or '—'} {_flat(c.now_answer)!r} ({c.who or c.changed_by}); "
            f"kept — add --take-packet {c.row.id} to take the packet's"
        )
    return 0


def _flat(text: str, limit: int = 60) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
