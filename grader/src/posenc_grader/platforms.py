"""What a learning platform's "download all submissions" says about each file: whose, which attempt, late or not.

:func:`open_download` unpacks the zip (or takes the folder), tells the platform from the names (:func:`detect`,
or ``--platform``), and reads every file into a :class:`Found`. A name that does not say whose a file is gives a
:class:`Found` with a ``problem``: never a guess. What this relies on, platform by platform:

- **Canvas** (canvas-lms ``lib/content_zipper.rb``: ``get_filename``, ``add_upload_submission``,
  ``sanitize_user_name``): ``<sortable name>[_LATE]_<user id>_<attachment id>_<file name>``, the sortable
  name ("Lovelace, Ada") in lower case with every non-word character removed and any ``_<digits>_`` taken
  out; ``anon_<anonymous id>`` in place of name and user id when grading is anonymous. A file uploaded again
  under the same name gets ``-1``, ``-2``, ... before its extension (canvas-lms issue 606; student forums).
  Re-uploading feedback (``Assignment#infer_comment_context_from_filename``) reads the first two all-digit
  ``_``-separated fields of each name in the zip as user and attachment id, and takes only an attachment of
  that user's current submission: the feedback keeps the prefix of the file that was graded.
- **Moodle** (``mod/assign``'s download: ``get_submission_prefix`` and ``load_submissionplugin_filelist``):
  ``<full name, "_" written as spaces>_<participant id>_assignsubmission_file`` as a folder per student
  (Moodle 3.1 and later; a trailing ``_`` before 4.1), or the same prefix and ``_`` before each file's name
  when "download submissions in folders" is off; ``Participant`` is the name under blind marking. The
  participant id is the assignment's own, not the user's id. Feedback files go back in a zip whose first
  path part is read the same way (``assignfeedback_file_zip_importer::is_valid_filename_for_import``).
- **Blackboard Learn** (nbgrader's ``zip_collect`` documentation, built on a Blackboard download, and
  public parsers of its receipts): ``<assignment>_<username>_attempt_<YYYY-MM-DD-HH-MM-SS>_<file name>``,
  and for each attempt a receipt ``<assignment>_<username>_attempt_<date>.txt`` whose lines ``Name: First
  Last (username)`` and ``Date Submitted: ...`` say whose and when; a support page of Blackboard's says a
  late attempt's date shows "(Late)". Only English downloads are read (others say ``poging``, ``Naam``).
- **Gradescope** (public tools that read its "Export Submissions"): ``assignment_<id>_export/`` holds
  ``submission_metadata.yml`` and a folder per submission; the metadata maps each folder to its
  ``:submitters:`` (``:name:``, ``:sid:``, ``:email:``; several for a group) and its ``:created_at:``.
"""

from __future__ import annotations

import re
import shutil
import zipfile
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath

import yaml

PLATFORMS = ("canvas", "moodle", "blackboard", "gradescope")
FOLDERS = "folders"  # today's layout, SUBMISSIONS/<student>/<assignment>/<notebook>.ipynb: no platform
SKIPPED = {"__MACOSX", "Thumbs.db"}  # what zip tools and file browsers add; dot-files are skipped too

_CANVAS = re.compile(r"(?:(?P<name>.*?)_)?(?:(?P<late>late)_)?(?P<user>\d+|anon_[A-Za-z0-9]+)_(?P<file>\d+)_"
                     r"(?P<original>.+)", re.IGNORECASE)
_AGAIN = re.compile(r"(?P<stem>.+)-(?P<count>\d+)(?P<suffix>\.[^.]+)?")  # Canvas: rotation-2.ipynb
_MOODLE = re.compile(r"(?P<name>[^_]*)_(?P<id>\d+)_assignsubmission_(?P<plugin>[a-z]+)(?:_(?P<rest>.*))?")
# the first "_attempt_<date>": Blackboard's own, before the name the student gave the file (which may hold another)
_BLACKBOARD = re.compile(r"(?P<head>.+?)_attempt_(?P<when>\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d)(?:_(?P<original>.+))?")
_RECEIPT_NAME = re.compile(r"^Name:\s*(?P<name>.*?)\s*\((?P<user>[^()]+)\)\s*$", re.MULTILINE)
_RECEIPT_DATE = re.compile(r"^Date Submitted:(?P<date>.*)$", re.MULTILINE)
GRADESCOPE_METADATA = "submission_metadata.yml"


class NothingToPlace(RuntimeError):
    """A download in which no file can be told to be some student's notebook."""


@dataclass(frozen=True)
class Found:
    """One file of a download and what its name (or the platform's metadata) says about it."""

    path: Path | None                # the file; None for a zip entry that was not unpacked (see ``problem``)
    shown: str                       # its path in the download, as reports show it
    platform_id: str = ""            # who handed it in, by the platform's id for them
    name: str = ""                   # their name, as the platform spells it
    email: str = ""
    attempt: str = ""                # which attempt, as reports show it
    order: tuple = ()                # sorts one student's attempts: the latest sorts last
    late: bool = False
    feedback_prefix: str = ""        # a feedback file named this prefix + its name goes back to this student
    original: str = ""               # the file's name as the student gave it, without the platform's prefix
    problem: str = ""                # why it cannot be placed, when it cannot


@dataclass
class Download:
    """A platform's download: which platform, and every file found in it."""

    platform: str
    found: list[Found] = field(default_factory=list)


def open_download(source: Path, scratch: Path, platform: str = "auto", max_bytes: int = 2**30) -> Download | None:
    """The platform download at ``source`` (a zip, or a folder), or None for today's ``<student>/`` layout.

    A zip is unpacked into ``scratch`` (emptied first), entries above ``max_bytes`` or with unsafe paths left
    out and reported. ``platform`` is ``"auto"`` (told from the names), one of :data:`PLATFORMS`, or
    :data:`FOLDERS`. Raises :class:`NothingToPlace` when no file can be some student's notebook.
    """
    if platform not in ("auto", FOLDERS, *PLATFORMS):
        raise ValueError(f"unknown platform {platform!r}: expected auto, {FOLDERS} or one of {', '.join(PLATFORMS)}")
    if platform == FOLDERS:
        if source.is_file():
            raise ValueError(f"{source} is a file: --platform {FOLDERS} takes a folder <student>/<assignment>/")
        return None
    skipped: list[Found] = []
    archive = source.is_file()
    if archive:
        if not zipfile.is_zipfile(source):
            raise NothingToPlace(f"{source} is neither a folder nor a zip archive")
        skipped = _unpack(source, scratch, max_bytes)
        source = scratch
    root = _inner(source)
    platform = detect(root) if platform == "auto" else platform
    if platform is None and archive:
        raise NothingToPlace(f"nothing in this archive can be graded: its names follow none of "
                             f"{', '.join(PLATFORMS)}'s downloads (see --platform)")
    if platform is None:
        return None
    links = [Found(None, shown, problem="a symbolic link: links are not followed, so it was not graded")
             for path, shown in files_under(root, links=True)]
    download = Download(platform, skipped + links + list(READERS[platform](root)))
    _check_placeable(download)
    return download


def detect(root: Path) -> str | None:
    """The platform whose naming the files under ``root`` follow, or None (today's layout, or nothing known).

    Only what the platform itself names counts: Gradescope's metadata at the top, Canvas's and Blackboard's names of
    the files at the top, Moodle's of the first part of each path (a file or folder a student names deeper, in
    ``<student>/<assignment>/``, decides nothing). Of those, the platform whose names most entries at the top have
    (files and folders, each counted once, whatever it holds), Canvas's on a tie: a student names only the end of a
    Canvas file, after its prefix, so look-alikes count for Canvas too; and only where at least half of them have
    its names (one student's folder named like Moodle's is no download)."""
    if (root / GRADESCOPE_METADATA).is_file() and not (root / GRADESCOPE_METADATA).is_symlink():
        return "gradescope"
    top = {shown.split("/")[0]: "/" not in shown for _, shown in files_under(root)}  # name: whether a file
    named = {"canvas": sum(bool(_CANVAS.fullmatch(name)) for name, file in top.items() if file),
             "moodle": sum(bool(_MOODLE.fullmatch(name)) for name in top),
             "blackboard": sum(bool(_BLACKBOARD.fullmatch(name.removesuffix(".txt"))) for name, file in top.items()
                               if file)}  # its receipts too: an attempt may hold nothing else
    platform = max(named, key=named.get)
    return platform if named[platform] * 2 >= len(top) > 0 else None


def is_notebook(name: str) -> bool:
    """Whether a file of this name is handed in as a notebook (``.ipynb``, in any case)."""
    return name.lower().endswith(".ipynb")


def files_under(root: Path, links: bool = False):
    """``(path, shown)`` for every visible file under ``root`` (with ``links``, every symbolic link instead: a
    link is never read, since it may point anywhere), sorted; ``shown`` is relative, with ``/``."""
    for path in sorted(root.rglob("*")):
        parts = path.relative_to(root).parts
        wanted = path.is_symlink() if links else path.is_file() and not path.is_symlink()
        if wanted and not any(p.startswith(".") or p in SKIPPED for p in parts):
            yield path, "/".join(parts)


def _inner(folder: Path) -> Path:
    """``folder``, or the folder it wraps when it holds nothing else (as an unpacked export does): one level, never
    more (deeper, a lone student's folder would be read, and the names they chose in it as a platform's)."""
    entries = [p for p in folder.iterdir() if not (p.name.startswith(".") or p.name in SKIPPED)]
    if len(entries) == 1 and entries[0].is_dir() and not _MOODLE.fullmatch(entries[0].name):
        return entries[0]
    return folder


def _unpack(archive: Path, into: Path, max_bytes: int) -> list[Found]:
    """Unpack ``archive`` into ``into`` as plain files, leaving out (and returning as problems) entries with unsafe
    paths, a name met before, a place that cannot be written, or more than ``max_bytes`` of content (whatever their
    headers claim)."""
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir(parents=True)
    left_out, unpacked = [], set()
    with zipfile.ZipFile(archive) as zipped:
        for info in [entry for entry in zipped.infolist() if not entry.is_dir()]:
            name = PurePosixPath(info.filename.replace("\\", "/"))
            if name.is_absolute() or ".." in name.parts:
                left_out.append(Found(None, info.filename, problem="unsafe path in the archive (not unpacked)"))
                continue
            if name in unpacked:
                left_out.append(Found(None, info.filename, problem="a second entry of this name in the archive "
                                                                   "(not unpacked)"))
                continue
            unpacked.add(name)
            target = into / name
            try:  # a file and a folder of one name, say
                target.parent.mkdir(parents=True, exist_ok=True)
                with zipped.open(info) as source, open(target, "wb") as copy:
                    while (chunk := source.read(2**20)) and copy.tell() + len(chunk) <= max_bytes:
                        copy.write(chunk)
            except OSError as error:
                left_out.append(Found(None, info.filename, problem=f"cannot be unpacked ({error.strerror or error})"))
                continue
            if chunk:
                target.unlink()
                left_out.append(Found(None, info.filename, problem=f"too large: over the limit of "
                                                                   f"{max_bytes / 2**20:.0f} MB (not unpacked)"))
    return left_out


def _check_placeable(download: Download) -> None:
    """Raise :class:`NothingToPlace` unless some file is a notebook whose owner is known."""
    if any(f.platform_id and not f.problem and is_notebook(f.shown) for f in download.found):
        return
    examples = "; ".join(f"{f.shown}: {f.problem or 'not a notebook'}" for f in download.found[:3])
    raise NothingToPlace(f"nothing in this {download.platform} download can be graded: of its "
                         f"{len(download.found)} files none is a notebook whose owner its name tells"
                         + (f" ({examples})" if examples else ""))


def _canvas(root: Path):
    for path, shown in files_under(root):
        match = _CANVAS.fullmatch(path.name) if "/" not in shown else None
        if match is None:
            yield Found(path, shown, problem="the name is not Canvas's <name>_<user id>_<file id>_<file name>, "
                                             "so whose it is cannot be told")
            continue
        name, late = match["name"] or "", bool(match["late"])
        if name.lower() == "late" and not late:  # anonymous and late: LATE_anon_<id>_...
            name, late = "", True
        again = _AGAIN.fullmatch(match["original"])
        yield Found(path, shown, platform_id=match["user"], name=name or match["user"], late=late,
                    attempt=f"file {match['file']}" + (f" (upload {int(again['count']) + 1})" if again else ""),
                    order=(int(match["file"]),), feedback_prefix=path.name[:match.start("original")],
                    original=match["original"])


def _moodle(root: Path):
    for path, shown in files_under(root):
        parts = PurePosixPath(shown).parts
        index, match = next(((i, m) for i, part in enumerate(parts) if (m := _MOODLE.fullmatch(part))), (0, None))
        if match is None:
            yield Found(path, shown, problem="no part of its path is Moodle's <full name>_<participant id>_"
                                             "assignsubmission_<plugin>, so whose it is cannot be told")
            continue
        in_folder = index < len(parts) - 1
        prefix = parts[index] + "/" if in_folder else parts[index][:len(parts[index]) - len(match["rest"] or "")]
        yield Found(path, shown, platform_id=match["id"], name=match["name"], feedback_prefix=prefix,
                    original=path.name if in_folder else match["rest"] or "")


def _blackboard(root: Path):
    files = list(files_under(root))
    receipts = {path.stem: _receipt(path) for path, _ in files
                if path.suffix == ".txt" and (m := _BLACKBOARD.fullmatch(path.stem)) and not m["original"]}
    for path, shown in files:
        match = _BLACKBOARD.fullmatch(path.name)
        if path.suffix == ".txt" and receipts.get(path.stem):
            continue  # a receipt: read above
        if match is None or not match["original"]:
            yield Found(path, shown, problem="the name is not Blackboard's <assignment>_<username>_attempt_"
                                             "<date>_<file name>, so whose it is cannot be told")
            continue
        prefix = f"{match['head']}_attempt_{match['when']}"
        user, name, late = receipts.get(prefix) or (match["head"].rsplit("_", 1)[-1], "", False)
        day, time = match["when"][:10], match["when"][11:].replace("-", ":")
        yield Found(path, shown, platform_id=user, name=name or user, late=late, attempt=f"{day} {time}",
                    order=(match["when"],), original=match["original"])


def _receipt(path: Path) -> tuple[str, str, bool] | None:
    """``(username, name, late)`` from a Blackboard receipt, or None when the file is not one."""
    text = path.read_text(encoding="utf-8", errors="replace")
    name, date = _RECEIPT_NAME.search(text), _RECEIPT_DATE.search(text)
    if name is None:
        return None
    return name["user"].strip(), name["name"], bool(date and re.search(r"\blate\b", date["date"], re.IGNORECASE))


class _WithoutAliases(yaml.SafeLoader):
    """YAML's safe loader, refusing aliases: Gradescope writes none, and a few bytes of them expand to gigabytes."""

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            raise yaml.YAMLError("an alias (*name): Gradescope's metadata has none")
        return super().compose_node(parent, index)


def _gradescope(root: Path):
    metadata_file = root / GRADESCOPE_METADATA  # the export's own: a copy in a submission folder is a student's
    try:
        if metadata_file.is_symlink():
            raise OSError("a symbolic link, not followed")
        metadata = yaml.load(metadata_file.read_text(encoding="utf-8"), Loader=_WithoutAliases) or {}
    except (OSError, yaml.YAMLError) as error:
        raise NothingToPlace(f"gradescope: {metadata_file} cannot be read: {error}") from error
    base = metadata_file.parent
    for path, _ in files_under(base):
        if path == metadata_file:
            continue
        shown = "/".join(path.relative_to(base).parts)
        folder = shown.split("/")[0] if "/" in shown else None
        entry = metadata.get(folder) if isinstance(metadata, dict) and folder else None
        if not isinstance(entry, dict):
            yield Found(path, shown, problem=f"not in a submission folder that {GRADESCOPE_METADATA} lists, "
                                             "so whose it is cannot be told")
            continue
        when = entry.get(":created_at")
        if isinstance(when, datetime):
            when = (when.astimezone(timezone.utc) if when.tzinfo else when).isoformat()
        submitters = [s for s in entry.get(":submitters") or [] if isinstance(s, dict)]
        if not submitters:
            yield Found(path, shown, problem=f"{GRADESCOPE_METADATA} names no submitter for its folder")
        for person in submitters:
            sid, email = str(person.get(":sid") or "").strip(), str(person.get(":email") or "").strip()
            if not (sid or email):
                yield Found(path, shown, problem=f"{GRADESCOPE_METADATA} gives its submitter no SID and no email")
                continue
            yield Found(path, shown, platform_id=sid or email, name=str(person.get(":name") or sid or email),
                        email=email, attempt=str(when or ""), order=(str(when or ""),))


READERS = {"canvas": _canvas, "moodle": _moodle, "blackboard": _blackboard, "gradescope": _gradescope}
