"""The `bookchat` command line: ingest, serve, eval, report, urls."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from bookchat.config import Settings
    from bookchat.ingest.read_ahead import ReadAhead
    from bookchat.ingest.run import SiteSource

EXIT_USAGE = 2
EXIT_UNAVAILABLE = 3


def _settings() -> Any:
    from bookchat.config import Settings

    return Settings()


def _print_report(report: dict[str, Any], *, as_json: bool, dry_run: bool) -> None:
    if as_json:
        print(json.dumps(report, indent=2))
        return
    for skip in report["skipped"]:
        print(f"skipped {skip['path']}: {skip['reason']}")
    if dry_run:
        for change in report["changes"]:
            print(f"would {change['change']} {change['chunk_id']} {change['url']}".rstrip())
    editions = report.get("editions", [])
    for edition in editions if len(editions) > 1 else ():
        print(
            f"{edition['edition']}: pages {edition['pages']}, chunks {edition['chunks']}; "
            f"added {edition['added']}, updated {edition['updated']}, deleted "
            f"{edition['deleted']}, unchanged {edition['unchanged']}; "
            f"embedded {edition['embedded']}"
        )
    verb = "would be" if dry_run else ""
    print(
        f"files scanned {report['files_scanned']}, pages {report['pages']}, "
        f"skipped {len(report['skipped'])}; chunks added {report['added']}, updated "
        f"{report['updated']}, deleted {report['deleted']}, unchanged {report['unchanged']}"
        f"{' (' + verb + ')' if verb else ''}; embedded {report['embedded']} "
        f"(sentences {report.get('embedded_sentences', 0)}, "
        f"{report.get('word_pieces', 0):,} word pieces); "
        f"corpus {report['corpus_version']}; {report['seconds']:.2f} s"
    )


def cmd_ingest(args: argparse.Namespace) -> int:
    """Index the docs folder (or every version and locale of a built site), embedding only what
    changed."""
    from bookchat.ingest.manifest import ManifestError, read_site_routes
    from bookchat.ingest.read_ahead import ReadAhead
    from bookchat.ingest.run import SiteSource, load_corpus

    settings = _settings()
    if args.site and args.docs:
        print("error: give either --site or --docs, not both", file=sys.stderr)
        return EXIT_USAGE
    site = SiteSource(Path(args.site or "."), Path(args.build_dir) if args.build_dir else None)
    source = site if args.site else None
    docs = Path(args.docs) if args.docs else settings.docs_dir
    if args.site:
        try:
            read_site_routes(site.site_dir, site.build_dir)  # fail before opening the store
        except ManifestError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return EXIT_USAGE
    elif not docs.is_dir():
        print(f"error: docs folder not found: {docs}", file=sys.stderr)
        return EXIT_USAGE
    # The book is read in another process while this one opens the store and loads the model;
    # started before the store is opened, so that process holds none of the store's files.
    ahead = ReadAhead(lambda: load_corpus(settings, None if source else docs, source))
    try:
        return _ingest(args, settings, docs, source, ahead)
    finally:
        ahead.close()


def _ingest(
    args: argparse.Namespace,
    settings: Settings,
    docs: Path,
    site: SiteSource | None,
    ahead: ReadAhead,
) -> int:
    from bookchat.embedding.embedder import Embedder
    from bookchat.ingest.handoff import HandoffFailed, ingest_via_server
    from bookchat.ingest.run import run_ingest
    from bookchat.vectorstore import StoreLocked, StoreUnavailable, open_store

    try:
        store = open_store(settings)
    except StoreLocked:
        try:
            report = ingest_via_server(
                settings.data_dir,
                docs,
                dry_run=args.dry_run,
                full=args.full,
                site=(site.site_dir, site.build_dir) if site else None,
            )
        except HandoffFailed as exc:
            print(
                f"error: the index in {settings.store_dir} is in use by another process and {exc}. "
                "Stop that process or wait for it to finish, then run bookchat ingest again.",
                file=sys.stderr,
            )
            return EXIT_UNAVAILABLE
        print("The running bookchat server holds the index; it ran this ingest.", file=sys.stderr)
        _print_report(report, as_json=args.json, dry_run=args.dry_run)
        return 0
    except StoreUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_UNAVAILABLE
    embedder = Embedder.from_settings(settings, threads=2, bulk=True)
    try:
        result = run_ingest(
            settings,
            store,
            lambda: embedder,
            None if site else docs,
            site=site,
            dry_run=args.dry_run,
            full=args.full,
            progress=sys.stderr.isatty() and not args.json,
            ahead=ahead,
        )
    except KeyboardInterrupt:
        print("interrupted: run bookchat ingest again to finish (nothing is lost)", file=sys.stderr)
        return 130
    finally:
        store.close()
    _print_report(result.to_json(), as_json=args.json, dry_run=args.dry_run)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the HTTP API."""
    from bookchat.api.server import serve

    code: int = serve(_settings(), host=args.host, port=args.port)
    return code


def cmd_urls(args: argparse.Namespace) -> int:
    """Print every URL the index can cite (chapter pages and section anchors)."""
    from bookchat.ingest.corpus import build_corpus

    settings = _settings()
    docs = Path(args.docs) if args.docs else settings.docs_dir
    corpus = build_corpus(
        docs, base_url=settings.site_base_url, route=settings.docs_route_base_path
    )
    urls = {page["url"] for ch in corpus.chapters for page in ch.to_json()["pages"]}
    urls |= {ch.url for ch in corpus.chapters}
    urls |= {str(c.payload["url"]) for c in corpus.chunks}
    for url in sorted(urls):
        print(url)
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    """Run evaluation fixtures through the answer path and print metrics."""
    from bookchat.evals.command import run_eval_command

    code: int = run_eval_command(_settings(), args)
    return code


def cmd_check_llm(args: argparse.Namespace) -> int:
    """Probe the configured model server; one line per capability and what bookchat will use."""
    import asyncio

    from bookchat.answer.llm.generator import LLMGenerator
    from bookchat.answer.llm.server import ModelNotConfigured

    settings = _settings()
    try:
        generator = LLMGenerator.from_settings(settings)
    except ModelNotConfigured:
        print(
            "error: no model configured: set BOOKCHAT_LLM_MODEL (and OPENAI_BASE_URL)",
            file=sys.stderr,
        )
        return EXIT_USAGE

    async def run() -> Any:
        try:
            return await generator.probe()
        finally:
            await generator.close()

    found = asyncio.run(run())
    base = settings.openai_base_url or "https://api.openai.com/v1"
    print(f"model {found.model} at {base}: {found.state}")
    for line in found.lines():
        print(f"  {line}")
    return 0 if found.state != "unusable" else EXIT_UNAVAILABLE


def cmd_report_gaps(args: argparse.Namespace) -> int:
    """Print the questions readers asked that the book does not answer, grouped by meaning."""
    import asyncio

    from bookchat.embedding.embedder import Embedder
    from bookchat.history import HistoryUnavailable, open_conversation_store
    from bookchat.history.gap_report import group_gaps, render_json, render_markdown

    settings = _settings()

    async def collect() -> list[Any]:
        store = await open_conversation_store(settings)
        try:
            return list(await store.gaps(args.since))
        finally:
            await store.close()

    try:
        rows = asyncio.run(collect())
    except HistoryUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_UNAVAILABLE
    vectors = Embedder.from_settings(settings).embed([r.question for r in rows]) if rows else None
    gaps = group_gaps(rows, vectors) if vectors is not None else []
    render = render_json if args.format == "json" else render_markdown
    print(render(gaps, args.since))
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (kept import-light so --help is instant)."""
    parser = argparse.ArgumentParser(prog="bookchat", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    ingest = sub.add_parser("ingest", help="index the book (only what changed is re-embedded)")
    ingest.add_argument("--docs", help="docs folder (default: website/docs or BOOKCHAT_DOCS_DIR)")
    ingest.add_argument(
        "--site",
        help="a built Docusaurus site: every docs version and locale its route manifests list",
    )
    ingest.add_argument("--build-dir", help="the site's build output (default: SITE/build)")
    ingest.add_argument("--dry-run", action="store_true", help="print what would change")
    ingest.add_argument("--full", action="store_true", help="re-embed everything")
    ingest.add_argument("--json", action="store_true", help="print the report as JSON")
    ingest.set_defaults(func=cmd_ingest, exit_at_once=True)

    serve = sub.add_parser("serve", help="serve the HTTP API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.set_defaults(func=cmd_serve)

    urls = sub.add_parser("urls", help="print every URL the index cites")
    urls.add_argument("--docs")
    urls.set_defaults(func=cmd_urls)

    check = sub.add_parser("check-llm", help="probe the configured model server's capabilities")
    check.set_defaults(func=cmd_check_llm)

    report = sub.add_parser("report", help="reports for authors")
    report_sub = report.add_subparsers(dest="report", required=True)
    gaps = report_sub.add_parser("gaps", help="what readers asked that the book does not answer")
    gaps.add_argument("--since", type=float, default=30, metavar="DAYS", help="default 30")
    gaps.add_argument("--format", choices=["md", "json"], default="md")
    gaps.set_defaults(func=cmd_report_gaps)

    ev = sub.add_parser("eval", help="run evaluation fixtures")
    ev.add_argument("--fixtures", help="fixture JSONL file")
    ev.add_argument(
        "--generator",
        choices=["extractive", "llm"],
        help="who writes the answers (default: BOOKCHAT_GENERATOR); llm streams and times them",
    )
    ev.add_argument("--docs", help="docs folder the fixtures are about (ingested first)")
    ev.add_argument("--limit", type=int, help="run at most N rows")
    ev.add_argument("--slice", action="append", dest="slices", help="only these slices")
    ev.add_argument("--out", help="write per-row results (JSONL) here")
    ev.add_argument("--summary", help="write the summary JSON here")
    ev.add_argument("--rows", help="gate or summarise an existing rows file instead of running")
    ev.add_argument("--gate", help="gates TOML: exit 1 naming every threshold missed")
    ev.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"), help="diff two rows files")
    ev.set_defaults(func=cmd_eval)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `bookchat` command."""
    args = build_parser().parse_args(argv)
    code: int = args.func(args)
    if argv is None and getattr(args, "exit_at_once", False):
        _exit(code)
    return code


def _exit(code: int) -> NoReturn:
    """End the process now, skipping the interpreter's teardown."""
    # Tearing down torch's modules takes ~0.3 s, a tenth of all that `bookchat ingest` does
    # besides embedding, and nothing is left to tear down: the store is closed, the report
    # printed. Only the process's own command (argv None) exits so; callers of main() return.
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    sys.exit(main())
