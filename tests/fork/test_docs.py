"""The docs that restate the manifest stay in step with it."""

from __future__ import annotations

import pathlib
import tomllib

REPO = pathlib.Path(__file__).resolve().parents[2]


def _table_rows(markdown: str) -> list[list[str]]:
  return [
      [cell.strip().strip('`') for cell in line.strip().strip('|').split('|')]
      for line in markdown.splitlines()
      if line.startswith('| ')
  ]


def test_patch_queue_doc_lists_every_patch_with_its_pr_and_status():
  manifest = tomllib.loads((REPO / 'patches' / 'upstream-prs.toml').read_text())
  series = (REPO / 'patches' / 'series').read_text().split()
  rows = {
      row[0]: row
      for row in _table_rows((REPO / 'docs' / 'patch-queue.md').read_text())
      if row[0].endswith('.patch')
  }

  assert sorted(rows) == sorted(series)
  for pr in manifest['pr']:
    for patch in pr['patches']:
      _, pr_id, _, status, depends_on = rows[patch]
      assert (pr_id, status) == (pr['id'], pr['status']), patch
      assert depends_on.replace('`', '').split(', ') == (
          pr.get('depends-on') or ['']
      ), patch


def test_diagnostics_doc_has_an_entry_per_code():
  from google.adk.diagnostics import CODES

  text = (REPO / 'docs' / 'diagnostics.md').read_text()

  assert CODES
  for code in CODES:
    assert f'## {code}' in text, code
