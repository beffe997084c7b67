"""Writes the fork's wheel and its metadata from upstream's."""

from __future__ import annotations

import base64
import hashlib
import pathlib
import zipfile

from .project import Project

TAG = 'py3-none-any'
# Fixed timestamps make the wheel reproducible byte for byte.
_ZIP_DATE = (2020, 1, 1, 0, 0, 0)


def dist_info_name(project: Project) -> str:
  return f'google_adk-{project.version}.dist-info'


def wheel_name(project: Project) -> str:
  return f'google_adk-{project.version}-{TAG}.whl'


def metadata_files(
    project: Project, upstream_dist_info: dict[str, bytes]
) -> dict[str, bytes]:
  """Returns the fork's dist-info files: upstream's but for the version.

  Requires-Dist, extras, entry points, Requires-Python and the description
  stay byte-identical to upstream's, so every package that depends on
  google-adk sees the same distribution.
  """
  metadata = upstream_dist_info['METADATA'].decode('utf-8')
  head, separator, description = metadata.partition('\n\n')
  lines = head.split('\n')
  lines = [
      f'Version: {project.version}' if line.startswith('Version: ') else line
      for line in lines
  ]
  files = {
      'METADATA': ('\n'.join(lines) + separator + description).encode('utf-8'),
      'WHEEL': (
          (
              'Wheel-Version: 1.0\n'
              'Generator: adkfork\n'
              'Root-Is-Purelib: true\n'
              f'Tag: {TAG}\n'
          ).encode('utf-8')
      ),
  }
  for name, data in upstream_dist_info.items():
    if name not in ('METADATA', 'WHEEL', 'RECORD'):
      files[name] = data  # entry_points.txt, licenses/LICENSE
  return files


def write_metadata_dir(
    project: Project, folder: pathlib.Path, upstream_dist_info: dict[str, bytes]
) -> str:
  """Writes the dist-info folder for `prepare_metadata_for_build_*`."""
  name = dist_info_name(project)
  for path, data in metadata_files(project, upstream_dist_info).items():
    target = folder / name / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
  return name


def _record_line(path: str, data: bytes) -> str:
  digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=')
  return f'{path},sha256={digest.decode("ascii")},{len(data)}'


def write_wheel(
    project: Project,
    folder: pathlib.Path,
    files: dict[str, bytes],
    upstream_dist_info: dict[str, bytes],
) -> str:
  """Writes a wheel holding `files` plus the fork's dist-info.

  Args:
    project: The project settings.
    folder: Where to write the wheel.
    files: The package files, keyed by their path in the wheel.
    upstream_dist_info: Upstream's dist-info files.

  Returns:
    The wheel's file name.
  """
  info = dist_info_name(project)
  entries = dict(sorted(files.items()))
  for path, data in metadata_files(project, upstream_dist_info).items():
    entries[f'{info}/{path}'] = data
  record = [_record_line(path, data) for path, data in entries.items()]
  record.append(f'{info}/RECORD,,')
  entries[f'{info}/RECORD'] = ('\n'.join(record) + '\n').encode('utf-8')
  name = wheel_name(project)
  folder.mkdir(parents=True, exist_ok=True)
  with zipfile.ZipFile(folder / name, 'w', zipfile.ZIP_DEFLATED) as archive:
    for path, data in entries.items():
      entry = zipfile.ZipInfo(path, date_time=_ZIP_DATE)
      entry.external_attr = 0o644 << 16
      entry.compress_type = zipfile.ZIP_DEFLATED
      archive.writestr(entry, data)
  return name
