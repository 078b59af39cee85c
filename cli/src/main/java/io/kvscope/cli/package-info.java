/**
 * The {@code kvscope} command line: one picocli class per subcommand, wiring ingest, index,
 * analysis, samples and GUI together. Exit codes: 0 success (or clean audit), 1 findings (audit),
 * 2 error.
 */
package io.kvscope.cli;
