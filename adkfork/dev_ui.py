"""Edits to upstream's compiled dev UI, applied at build time.

The dev UI (`google/adk/cli/browser/`) ships in upstream's wheel as a
minified Angular bundle built from another repository (google/adk-web), whose
source the build cannot fetch. A unified diff of a minified line would carry
the whole line, some 100 KB of upstream code, so the few changes the fork
makes to the bundle are written as edits instead: each names a file, a short
`find` text that must occur in it exactly once, and its replacement.
`patches/dev-ui.toml` lists them; `build_tree` applies them after the patch
queue and before the overlay, so `python -m adkfork check` verifies them too.
"""

from __future__ import annotations

import dataclasses
import tomllib

from .errors import ForkBuildError
from .project import Project
from .project import to_package_path

EDITS_FILE = 'dev-ui.toml'


@dataclasses.dataclass(frozen=True)
class Edit:
  """One exact-text replacement in a file of upstream's compiled dev UI."""

  name: str
  file: str  # Upstream repository path, src/google/adk/cli/browser/...
  find: str
  replace: str


def read_edits(project: Project) -> list[Edit]:
  """Reads `patches/dev-ui.toml`; no file means no edits."""
  path = project.patches_dir / EDITS_FILE
  if not path.is_file():
    return []
  try:
    data = tomllib.loads(path.read_text('utf-8'))
  except tomllib.TOMLDecodeError as e:
    raise ForkBuildError(f'patches/{EDITS_FILE} is not valid TOML: {e}') from e
  edits = []
  for number, entry in enumerate(data.get('edit', []), start=1):
    missing = [
        key
        for key in ('name', 'file', 'why', 'find', 'replace')
        if not isinstance(entry.get(key), str) or not entry[key]
    ]
    if missing:
      raise ForkBuildError(
          f'patches/{EDITS_FILE}: edit #{number} lacks'
          f' {", ".join(missing)}; every [[edit]] needs a name, the file, why,'
          ' the text to find and its replacement.'
      )
    if not entry['file'].startswith('src/google/adk/cli/browser/'):
      raise ForkBuildError(
          f'patches/{EDITS_FILE}: edit {entry["name"]!r} names'
          f' {entry["file"]}; edits are only for the compiled dev UI under'
          ' src/google/adk/cli/browser/. Change Python files with a patch.'
      )
    edits.append(
        Edit(
            name=entry['name'],
            file=entry['file'],
            find=entry['find'],
            replace=entry['replace'],
        )
    )
  return edits


def apply_edits(edits: list[Edit], files: dict[str, bytes]) -> None:
  """Applies the edits to the package tree in place.

  Raises:
    ForkBuildError: If a file is missing or a `find` text does not occur
      exactly once; the message names the edit.
  """
  for edit in edits:
    path = to_package_path(edit.file)
    if path not in files:
      raise ForkBuildError(
          f'patches/{EDITS_FILE}: edit {edit.name!r}: {edit.file} is not in'
          ' the upstream wheel. The dev UI bundle changed; find the new file'
          ' and update the edit.'
      )
    text = files[path].decode('utf-8')
    count = text.count(edit.find)
    if count != 1:
      raise ForkBuildError(
          f'patches/{EDITS_FILE}: edit {edit.name!r}: its find text occurs'
          f' {count} times in {edit.file}, not exactly once. The dev UI'
          ' bundle changed; update the edit to the new bundle.'
      )
    files[path] = text.replace(edit.find, edit.replace).encode('utf-8')
