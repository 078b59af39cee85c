/**
 * Report writers: turn one {@link io.kvscope.analysis.impact.Report} into the files an incident
 * review hands around. {@link io.kvscope.analysis.report.ReportJson} writes (and reads back) the
 * versioned report.json contract; {@link io.kvscope.analysis.report.FindingsCsv} gives one row
 * per finding for spreadsheets, {@link io.kvscope.analysis.report.FindingsArrow} and
 * {@link io.kvscope.analysis.report.FindingsNdjson} one row per (finding, source) for pandas,
 * polars and DuckDB, both from the column declaration in
 * {@link io.kvscope.analysis.report.FindingColumn} (documented in docs/findings-table.md); {@link io.kvscope.analysis.report.MarkdownReport} and
 * {@link io.kvscope.analysis.report.HtmlReport} are the human reports; and
 * {@link io.kvscope.analysis.report.TenantBundles} writes one notification per tenant holding only
 * that tenant's own requests (JSON for machines, Markdown and HTML for the customer, the latter two
 * worded once through {@link io.kvscope.analysis.report.BundleNotice}).
 * {@link io.kvscope.analysis.report.ReportWriters} runs them all.
 *
 * <p>report.html is one file that works offline: inline CSS and SVG, and one inline script
 * ({@link io.kvscope.analysis.report.HtmlScript}: sorting, filtering and paging of tables) that
 * its Content-Security-Policy allows by hash, so nothing else can run and nothing is loaded.
 * Without script every row still shows.
 *
 * <p>Every file lands owner-only (0600, in 0700 directories) and atomically: it is streamed to a
 * temporary sibling and renamed, so a reader never sees half a report. Writers never hold prompt
 * or response text of their own: where a human report shows leaked content it asks a
 * {@link io.kvscope.analysis.report.TextSource} and, unless {@code reveal} is on, shows only what
 * {@link io.kvscope.analysis.report.ContentRedactor} lets through (hash, length, categories and a
 * masked excerpt).
 */
package io.kvscope.analysis.report;
