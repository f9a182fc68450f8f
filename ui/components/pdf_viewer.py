"""streamlit-pdf-viewer's page served so that the browser keeps its script between questions.

Each question shown on a new page or boxes opens a new viewer (pdf_pane.content_key), and a new
viewer is a new frame that loads the component's page and its 2 MB script (pdf.js inside).
Streamlit serves a component's files as ``Cache-Control: public`` with no date and no validator,
so the browser downloads the script again for every viewer (gzipped on the server, 0.6 MB) and
compiles it again: about 0.3–0.6 s of each opening on a busy 2-core machine. Its app static
files (``server.enableStaticServing``, .streamlit/config.toml: ``ui/static/`` at
``/app/static/``) are served with their modification time, which lets the browser reuse them
from its cache (and the script's compiled code) for a tenth of their age without asking. So the package's built page (its ``frontend/dist``
without the source maps) is copied once into ``ui/static/pdf_viewer/`` (git-ignored; again when
the installed package changes), and the same page is declared as a component at that address:
the same viewer, the same arguments, only served differently. Where static serving is off or
the folder cannot be written, the package's own component is used, as before."""

from __future__ import annotations

import base64
import shutil
from pathlib import Path

import streamlit as st
import streamlit.components.v1 as components
import streamlit_pdf_viewer
from streamlit_pdf_viewer import _component_func as _packaged

from engine.core.files import write_atomic

DIST = Path(streamlit_pdf_viewer.__file__).resolve().parent / "frontend" / "dist"
STATIC = Path(__file__).resolve().parents[1] / "static"  # ui/static: Streamlit's app static folder
SERVED = STATIC / "pdf_viewer"
STAMP = ".copied_from"  # names the copied files with their sizes and times: a new package is copied again


def _files() -> list[Path]:
    return sorted(p for p in DIST.rglob("*") if p.is_file() and p.suffix != ".map")


def _stamp(files: list[Path]) -> str:
    return "\n".join(f"{p.relative_to(DIST)} {p.stat().st_size} {p.stat().st_mtime_ns}" for p in files) + "\n"


def _copied() -> bool:
    """The package's page and files under ``ui/static/pdf_viewer`` (copied when missing or from
    another version of the package); False when they cannot be written there."""
    files = _files()
    stamp = _stamp(files)
    try:
        if (SERVED / STAMP).read_text(encoding="utf-8") == stamp:
            return True
    except OSError:
        pass
    try:
        for src in files:
            target = SERVED / src.relative_to(DIST)
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(target, src.read_bytes())
            if src.name != "index.html":  # the scripts' names hold their hash: their install time, kept longer
                shutil.copystat(src, target)  # (the page names them: its copy's own time, asked again sooner)
        write_atomic(SERVED / STAMP, stamp)
    except OSError:
        return False
    return True


def _declare():
    """The component at the static address, or the package's (static serving off, or no copy)."""
    if not st.get_option("server.enableStaticServing") or not _copied():
        return _packaged
    base = (st.get_option("server.baseUrlPath") or "").strip("/")
    prefix = f"/{base}" if base else ""
    return components.declare_component("pdf_viewer", url=f"{prefix}/app/static/pdf_viewer/index.html")


_component = _declare()


def pdf_viewer(
    input: bytes,
    *,
    key: str,
    annotations: list[dict],
    width: str = "100%",
    height: int | None = None,
    scroll_to_annotation: int | None = None,
    scroll_behavior: str = "smooth",
    annotation_outline_size: int = 1,
    show_page_separator: bool = True,
):
    """``streamlit_pdf_viewer.pdf_viewer`` for the options this app uses, with the same defaults
    for the others (the package's version 0.0.30 sends these arguments to its page)."""
    return _component(
        binary=base64.b64encode(input).decode("ascii"),
        width=width,
        height=height,
        key=key,
        default=0,
        annotations=annotations,
        pages_vertical_spacing=2,
        annotation_outline_size=annotation_outline_size,
        pages_to_render=(),
        render_text=False,
        resolution_boost=1,
        zoom_level=None,
        viewer_align="center",
        show_page_separator=show_page_separator,
        scroll_to_page=None,
        scroll_to_annotation=scroll_to_annotation if scroll_to_annotation and scroll_to_annotation >= 1 else None,
        scroll_behavior=scroll_behavior,
        allow_clickable_annotations_with_text_rendering=False,
    )
