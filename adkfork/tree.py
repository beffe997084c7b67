"""Assembles the fork's package tree: upstream, then the queue, then overlay."""

from __future__ import annotations

import dataclasses
import re

from . import dev_ui
from . import queue
from . import upstream
from .errors import ForkBuildError
from .project import Project
from .project import to_package_path

_VERSION_FILE = 'google/adk/version.py'
_VERSION_LINE = re.compile(r'^__version__ = ["\']([^"\']+)["\']', re.M)


@dataclasses.dataclass
class PackageTree:
  """The fork's files, in memory, keyed by their path inside the wheel."""

  files: dict[str, bytes]  # google/adk/... -> content.
  dist_info: dict[str, bytes]  # METADATA, entry_points.txt, licenses/...
  upstream_paths: frozenset[str]  # The package files upstream ships.
  overlay_paths: tuple[str, ...]  # Installed paths added by the overlay.


def split_upstream(
    contents: dict[str, bytes], project: Project
) -> tuple[dict[str, bytes], dict[str, bytes]]:
  """Splits a wheel's files into package files and dist-info files."""
  prefix = f'google_adk-{project.upstream_version}.dist-info/'
  files, dist_info = {}, {}
  for path, data in contents.items():
    if path.startswith(prefix):
      dist_info[path[len(prefix) :]] = data
    else:
      files[path] = data
  return files, dist_info


def pristine_files(
    project: Project, config_settings: dict[str, str] | None = None
) -> tuple[dict[str, bytes], dict[str, bytes]]:
  """Returns the upstream package files and dist-info files, verified."""
  wheel = upstream.upstream_wheel(project, config_settings)
  return split_upstream(upstream.read_upstream(wheel), project)


def check_version(project: Project, files: dict[str, bytes]) -> None:
  """Checks that the patched version.py names the version the build makes.

  Raises:
    ForkBuildError: If version.py and pyproject.toml disagree.
  """
  text = files[_VERSION_FILE].decode('utf-8')
  match = _VERSION_LINE.search(text)
  found = match.group(1) if match else None
  if found != project.version:
    raise ForkBuildError(
        f'src/{_VERSION_FILE} says __version__ = {found!r} after the patch'
        f' queue, but pyproject.toml [tool.adkfork] makes {project.version!r}.'
        ' Change both together: the local-version setting and the version'
        ' patch.'
    )


def build_tree(
    project: Project, config_settings: dict[str, str] | None = None
) -> PackageTree:
  """Builds the fork's package tree in memory.

  Args:
    project: The project settings.
    config_settings: PEP 517 config settings (may name the upstream wheel).

  Returns:
    The patched and overlaid tree, with upstream's dist-info files.

  Raises:
    ForkBuildError: If the artifact, a patch, the overlay or the version is
      wrong; the message names what and how to fix it.
  """
  files, dist_info = pristine_files(project, config_settings)
  upstream_paths = frozenset(files)
  for patch in queue.read_queue(project):
    queue.apply_patch(patch, files)
  dev_ui.apply_edits(dev_ui.read_edits(project), files)
  check_version(project, files)
  overlay_paths = []
  for repo_path in queue.overlay_files(project):
    path = to_package_path(repo_path)
    if path in upstream_paths:
      raise ForkBuildError(
          f'{repo_path} exists upstream: the overlay only adds files, so it'
          ' cannot replace upstream code. Change the upstream file with a'
          ' patch in patches/ instead (python -m adkfork materialize, edit,'
          ' commit, python -m adkfork refresh).'
      )
    files[path] = (project.root / repo_path).read_bytes()
    overlay_paths.append(path)
  return PackageTree(
      files=files,
      dist_info=dist_info,
      upstream_paths=upstream_paths,
      overlay_paths=tuple(overlay_paths),
  )
