"""Contributor commands: `python -m adkfork COMMAND`.

materialize  Write the patched tree to .fork/work/ as a git repository.
refresh      Regenerate patches/ (and src/) from that repository.
check        Check the queue against the pristine release.
export       Write one `git am`-able patch per upstream PR, each with the
             summary of its tests: the same run as `gate`; a PR whose tests
             did not run gets no patch.
gate         Run upstream's PR checks on every upstream PR: git am, size,
             new mypy errors, pyink/isort/ruff/codespell, the PR's tests.
format       Format our files with upstream's pyink and isort settings.
lint         Check formatting of our files and of the queue's hunks.
upstream     Print the path of the verified upstream wheel.
upstream-venv
             Print the python of .venv-upstream-<version>/, pristine upstream
             with this interpreter's dependency versions (made once), or
             $ADK_UPSTREAM_PYTHON.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

from . import check as check_lib
from . import export as export_lib
from . import gate as gate_lib
from . import lint as lint_lib
from . import pr_template
from . import upstream
from . import workspace
from .errors import ForkBuildError
from .project import load_project

_AUTHOR_HELP = (
    '"Name <email>" of the exported commits (default: git config user.name'
    ' and user.email)'
)


def _parser() -> argparse.ArgumentParser:
  parser = argparse.ArgumentParser(
      prog='python -m adkfork',
      description=__doc__.split('\n', 1)[0],
      formatter_class=argparse.RawDescriptionHelpFormatter,
      epilog=__doc__.split('\n', 1)[1],
  )
  commands = parser.add_subparsers(dest='command', required=True)
  command = commands.add_parser('materialize')
  command.add_argument('--dir', type=pathlib.Path)
  command.add_argument('--force', action='store_true')
  command = commands.add_parser('refresh')
  command.add_argument('--dir', type=pathlib.Path)
  command.add_argument('--dry-run', action='store_true')
  command = commands.add_parser('check')
  command.add_argument(
      '--no-round-trip',
      action='store_true',
      help='skip materialize+refresh (which needs git)',
  )
  for name in ('export', 'gate'):
    # Export is the gate: a patch is written only with its tests' summary.
    command = commands.add_parser(name)
    command.add_argument(
        '--out', type=pathlib.Path, default=pathlib.Path('dist/upstream-prs')
    )
    command.add_argument('--author', help=_AUTHOR_HELP)
    command.add_argument(
        '--pr',
        action='append',
        metavar='ID',
        help='check only this PR (repeatable); default: every upstream PR',
    )
  commands.choices['export'].add_argument(
      '--upstream-tests',
      type=pathlib.Path,
      metavar='DIR',
      help=(
          "a checkout of upstream's repository with its tests: PRs with"
          " upstream-test-additions put their tests into upstream's test"
          ' files; only exports (the gate runs without it)'
      ),
  )
  commands.add_parser('format')
  commands.add_parser('lint')
  commands.add_parser('upstream')
  commands.add_parser('upstream-venv')
  return parser


def _export_into_upstream_tests(project, args: argparse.Namespace) -> int:
  """Exports the upstream PRs, tests into upstream's files; no gate."""
  identity = export_lib.resolve_author(project.root, args.author)
  print(
      f'PRs cut against google-adk {project.upstream_version}, written by'
      f' {identity["GIT_AUTHOR_NAME"]} <{identity["GIT_AUTHOR_EMAIL"]}>'
      f' ({"--author" if args.author else "git config user.name/user.email"})'
  )
  failed = False
  for item in export_lib.export_each(
      project,
      args.out,
      author=args.author,
      upstream_tests=args.upstream_tests,
  ):
    if args.pr and item.pr.id not in args.pr:
      if item.path:
        item.path.unlink()
      continue
    if item.error:
      failed = True
      print(f'{item.pr.id}: not exported: {item.error}')
    elif item.path is not None:
      # No gate ran here, so there is no pytest summary to record: the line
      # waiting for one is left out rather than sent as a placeholder.
      text = item.path.read_text(encoding='utf-8')
      item.path.write_text(
          text.replace(pr_template.TEST_SUMMARY_PLACEHOLDER + '\n\n', '', 1),
          encoding='utf-8',
      )
      print(f'{item.pr.id}: {item.path} (applies to {item.base})')
  return 1 if failed else 0


def _run(args: argparse.Namespace) -> int:
  project = load_project()
  if args.command == 'materialize':
    folder = workspace.materialize(project, args.dir, force=args.force)
    print(f'Materialized the patched tree in {folder}')
  elif args.command == 'refresh':
    result = workspace.refresh(project, args.dir, dry_run=args.dry_run)
    verb = 'would change' if args.dry_run else 'changed'
    for path in result.changed:
      print(f'{verb}: {path}')
    if not result.changed:
      print('patches/ and src/ are up to date')
  elif args.command == 'check':
    problems = check_lib.check(project, round_trip=not args.no_round_trip)
    for problem in problems:
      print(f'error: {problem}')
    if problems:
      return 1
    print(
        'queue ok: every patch applies to pristine google-adk'
        f' {project.upstream_version}; the overlay only adds files'
    )
  elif args.command == 'export' and args.upstream_tests:
    return _export_into_upstream_tests(project, args)
  elif args.command in ('export', 'gate'):
    results = gate_lib.gate(project, args.out, author=args.author, only=args.pr)
    failed = [result.pr.id for result in results if not result.ok]
    if failed:
      print(f'gate failed: {", ".join(failed)}')
      return 1
    print('gate ok')
  elif args.command == 'format':
    lint_lib.format_files(project, lint_lib.own_files(project))
  elif args.command == 'lint':
    problems = lint_lib.lint(project)
    for problem in problems:
      print(f'error: {problem}')
    if problems:
      return 1
    print('lint ok')
  elif args.command == 'upstream':
    print(upstream.upstream_wheel(project))
  elif args.command == 'upstream-venv':
    print(upstream.upstream_python(project))
  return 0


def main(argv: list[str] | None = None) -> int:
  args = _parser().parse_args(argv)
  try:
    return _run(args)
  except ForkBuildError as e:
    print(f'adkfork: {e}', file=sys.stderr)
    return 2


if __name__ == '__main__':
  sys.exit(main())
