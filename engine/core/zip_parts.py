"""The members of an Office zip package (.docx, .docm, .xlsx, .xlsm), read the way a hostile
package cannot steer: :func:`inflated` unpacks one member 1 MiB at a time from its raw data,
however large its directory entry says it is; :func:`check_members` refuses, before any reader
opens the package, what would otherwise reach the reader as a library's exception (issue #56):

* two members of the same name (compared as Word and Excel compare them, ignoring case): a reader
  would read one and a writer rewrite both, so what is read would not be what is written;
* a member compressed with a method Office never writes (deflate64, PPMd…): ``zipfile`` cannot
  unpack it (``NotImplementedError``);
* a member whose compressed data is damaged (``zlib.error``) or does not match its checksum.

Each is :class:`~engine.core.types.UnreadableFile`: one line naming the file, the part and the fix.
"""

from __future__ import annotations

import struct
import zipfile
import zlib
from collections.abc import Iterator

from engine.core.types import UnreadableFile

CHUNK = 1 << 20  # bytes inflated at a time
_METHODS = {  # what the zip format calls the methods Office never writes (for messages)
    9: "deflate64",
    6: "implode",
    10: "PKWARE DCL implode",
    18: "IBM TERSE",
    19: "IBM LZ77",
    93: "zstandard",
    95: "xz",
    97: "WavPack",
    98: "PPMd",
}
_READ = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)  # what Word and Excel write


def inflated(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> Iterator[bytes]:
    """The bytes of one zip member, inflated at most 1 MiB at a time from its raw data, however
    large its directory entry says it is (``zipfile`` stops at the declared size; a count that
    must catch a lying directory cannot). Other compression methods go through ``zipfile``."""
    if info.compress_type not in _READ or info.flag_bits & 0x1:
        with zf.open(info) as stream:  # bzip2, lzma; encrypted members fail here, for the loader to say
            while chunk := stream.read(CHUNK):
                yield chunk
        return
    fp = zf.fp
    assert fp is not None
    fp.seek(info.header_offset)
    header = fp.read(30)
    if len(header) < 30 or header[:4] != b"PK\x03\x04":
        raise zipfile.BadZipFile(f"bad local header of {info.filename}")
    name_len, extra_len = struct.unpack_from("<HH", header, 26)
    start = info.header_offset + 30 + name_len + extra_len
    left = info.compress_size
    inflater = zlib.decompressobj(-zlib.MAX_WBITS) if info.compress_type == zipfile.ZIP_DEFLATED else None
    while left > 0:
        fp.seek(start + info.compress_size - left)
        raw = fp.read(min(left, 1 << 16))
        if not raw:
            raise zipfile.BadZipFile(f"{info.filename} is truncated")
        left -= len(raw)
        if inflater is None:
            yield raw
            continue
        data = raw
        while data:
            out = inflater.decompress(data, CHUNK)
            data = inflater.unconsumed_tail
            if out:
                yield out
            if inflater.eof:
                return


def check_members(zf: zipfile.ZipFile, name: str, fix: str, *, unpack: bool) -> None:
    """Refuse ``zf`` (shown as ``name``) for a duplicate member name or a compression method Office
    does not write; with ``unpack``, also for a member whose data cannot be unpacked or fails its
    checksum (every member read once, 1 MiB at a time, never past its declared size). ``fix``: what
    the person does about a damaged package ("open it in Word, save it again …")."""
    seen: dict[str, str] = {}
    for info in zf.infolist():
        key = info.filename.replace("\\", "/").casefold()
        if key in seen:
            same = "the same name" if seen[key] == info.filename else f"the same name as {seen[key]} (case aside)"
            raise UnreadableFile(
                name,
                f"holds two parts named {info.filename} ({same}): a crafted or damaged package, where what is "
                "read need not be what is written",
                fix,
            )
        seen[key] = info.filename
        if info.compress_type not in _READ and not info.flag_bits & 0x1:
            method = _METHODS.get(info.compress_type, f"method {info.compress_type}")
            raise UnreadableFile(
                name,
                f"stores its part {info.filename} compressed with {method}, which Office never writes and which is not read",
                fix,
            )
    if not unpack:
        return
    for info in zf.infolist():
        if info.is_dir() or info.flag_bits & 0x1:
            continue  # encrypted: the reader says so
        try:
            with zf.open(info) as stream:  # never past the declared size; the checksum checked at its end
                while stream.read(CHUNK):
                    pass
        except (zlib.error, zipfile.BadZipFile, EOFError, OSError) as exc:
            why = "does not match its checksum" if "CRC" in str(exc) else "cannot be unpacked"
            raise UnreadableFile(
                name, f"is damaged: the compressed data of its part {info.filename} {why}", fix
            ) from None


__all__ = ["CHUNK", "check_members", "inflated"]
