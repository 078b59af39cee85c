package io.kvscope.probe.canary;

/** A planned test not run, and why (a cap, an unknown limit, ...). */
public record Skipped(String what, String reason) {}
