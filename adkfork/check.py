"""Checks the queue against the pristine release without building a wheel."""

from __future__ import annotations

import pathlib
import tempfile

from . import queue
from . import tree as tree_lib
from . import workspace
from .errors import ForkBuildError
from .project import Project


def _series_problems(project: Project) -> list[str]:
  listed = queue.read_series(project)
  present = sorted(p.name for p in project.patches_dir.glob('*.patch'))
  problems = [
      f'patches/series lists {name}, which does not exist.'
      for name in listed
      if name not in present
  ]
  problems += [
      f'patches/{name} is not listed in patches/series: add it in the order'
      ' it applies, or delete it.'
      for name in present
      if name not in listed
  ]
  # A patch's number is its place in the series, so a number names one
  # patch and "patch 0027" in the docs is unambiguous.
  problems += [
      f'patches/series: {name} is patch {place} of the queue; name it'
      f' {place:04d}{name[4:]} (and the references to it) so that a number'
      ' names one patch.'
      for place, name in enumerate(listed, 1)
      if not name.startswith(f'{place:04d}-')
  ]
  return problems


def _header_problems(patches: list[queue.Patch]) -> list[str]:
  problems = []
  for patch in patches:
    fields = queue.parse_header_fields(patch.header)
    for field in queue.REQUIRED_HEADER_FIELDS:
      if not fields.get(field):
        problems.append(
            f'patches/{patch.name}: the header has no `{field}:` field (see'
            ' contributing/patch-queue.md for the header format).'
        )
  return problems


def _manifest_problems(project: Project, series: list[str]) -> list[str]:
  problems = []
  prs = queue.read_manifest(project)
  owners: dict[str, str] = {}
  ids = set()
  for pr in prs:
    if pr.id in ids:
      problems.append(f'patches/upstream-prs.toml: PR id {pr.id!r} repeats.')
    for dependency in pr.depends_on:
      if dependency not in ids:
        problems.append(
            f'patches/upstream-prs.toml: PR {pr.id!r} depends on'
            f' {dependency!r}, which is not an earlier PR in the file.'
        )
    ids.add(pr.id)
    for path in pr.patches + pr.modules + pr.tests:
      if path in owners:
        problems.append(
            f'patches/upstream-prs.toml: {path} belongs to both'
            f' {owners[path]!r} and {pr.id!r}.'
        )
      owners[path] = pr.id
    for name in pr.patches:
      if name not in series:
        problems.append(
            f'patches/upstream-prs.toml: PR {pr.id!r} names {name}, which is'
            ' not in patches/series.'
        )
    for path in pr.modules + pr.tests:
      if not (project.root / path).is_file():
        problems.append(
            f'patches/upstream-prs.toml: PR {pr.id!r} names {path}, which'
            ' does not exist.'
        )
    for path in pr.tests:
      if not path.startswith('tests/unittests/'):
        problems.append(
            f'patches/upstream-prs.toml: PR {pr.id!r} test {path} is outside'
            ' tests/unittests/, so it cannot go upstream with the PR.'
        )
  for name in series:
    if name not in owners:
      problems.append(
          f'patches/{name} belongs to no PR in patches/upstream-prs.toml.'
      )
  for path in queue.overlay_files(project):
    if path not in owners:
      problems.append(
          f'{path} belongs to no PR in patches/upstream-prs.toml: add it to'
          ' the `modules` of the PR it is part of.'
      )
  return problems


def _round_trip_problems(project: Project) -> list[str]:
  """Materialize then refresh must reproduce patches/ byte for byte."""
  with tempfile.TemporaryDirectory() as tmp:
    folder = workspace.materialize(project, pathlib.Path(tmp) / 'work')
    result = workspace.refresh(project, folder, dry_run=True)
  return [
      f'{path} is not in the form refresh writes: run `python -m adkfork'
      ' materialize` and `python -m adkfork refresh` to normalize it.'
      for path in result.changed
  ]


def check(project: Project, round_trip: bool = True) -> list[str]:
  """Returns every problem found in the queue; empty when all is well.

  Checks that patches/series lists exactly the patch files, that every patch
  parses, has its header fields and applies to the pristine release, that
  the overlay only adds files, that the version agrees, that the PR manifest
  covers every patch and module, and (with `round_trip`) that the patches are
  in the normal form materialize and refresh reproduce.

  Args:
    project: The project settings.
    round_trip: Also materialize and refresh in a temporary folder (needs
      git).

  Returns:
    Problem descriptions, each saying what to do.
  """
  problems = _series_problems(project)
  if problems:
    return problems
  try:
    patches = queue.read_queue(project)
    problems += _header_problems(patches)
    tree_lib.build_tree(project)
    problems += _manifest_problems(project, [p.name for p in patches])
  except ForkBuildError as e:
    return problems + [str(e)]
  if round_trip and not problems:
    problems += _round_trip_problems(project)
  return problems
