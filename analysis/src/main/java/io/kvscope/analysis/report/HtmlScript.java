package io.kvscope.analysis.report;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The one script of report.html: sorts tables of class {@code sortable} by a click (or Enter) on a
 * column header, and pages and filters the findings table (confidence, kind, free text). It loads
 * nothing and sends nothing; the page's Content-Security-Policy allows this exact script by its
 * hash and no other, so a value that slipped past escaping still could not run. Without script
 * (a mail client, a locked-down viewer) every row simply shows and the controls stay hidden.
 */
final class HtmlScript {

  private HtmlScript() {}

  static final String SOURCE = """
      (function () {
        'use strict';
        function number(text) {
          var t = text.replace(/[,\\s]/g, '');
          return /^-?\\d+(\\.\\d+)?$/.test(t) ? parseFloat(t) : null;
        }
        function value(cell) {
          return cell.hasAttribute('data-sort') ? cell.getAttribute('data-sort') : cell.textContent.trim();
        }
        function compare(a, b) {
          var x = number(a), y = number(b);
          if (x !== null && y !== null) { return x - y; }
          return a < b ? -1 : a > b ? 1 : 0;
        }
        function sortBy(table, column, header) {
          var descending = header.getAttribute('aria-sort') === 'ascending';
          Array.prototype.forEach.call(header.parentNode.cells, function (c) { c.removeAttribute('aria-sort'); });
          header.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
          var body = table.tBodies[0];
          var rows = Array.prototype.slice.call(body.rows);
          rows.sort(function (a, b) {
            var d = compare(value(a.cells[column]), value(b.cells[column]));
            return (descending ? -d : d) || (+a.getAttribute('data-order') - +b.getAttribute('data-order'));
          });
          rows.forEach(function (r) { body.appendChild(r); });
          table.dispatchEvent(new Event('sorted'));
        }
        Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (table) {
          Array.prototype.forEach.call(table.tBodies[0].rows, function (r, i) { r.setAttribute('data-order', i); });
          var heads = table.tHead.rows[table.tHead.rows.length - 1].cells;
          Array.prototype.forEach.call(heads, function (th, column) {
            th.tabIndex = 0;
            th.classList.add('sort');
            th.title = 'Sort by this column (again: reverse)';
            th.addEventListener('click', function () { sortBy(table, column, th); });
            th.addEventListener('keydown', function (e) {
              if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sortBy(table, column, th); }
            });
          });
        });

        var table = document.getElementById('findings-table');
        var controls = document.getElementById('findings-controls');
        if (!table || !controls) { return; }
        controls.hidden = false;
        var confidence = document.getElementById('f-confidence');
        var kind = document.getElementById('f-kind');
        var text = document.getElementById('f-text');
        var size = document.getElementById('f-size');
        var prev = document.getElementById('f-prev');
        var next = document.getElementById('f-next');
        var status = document.getElementById('f-status');
        var page = 0;
        function render() {
          var rows = Array.prototype.slice.call(table.tBodies[0].rows);
          var q = text.value.trim().toLowerCase();
          var shown = rows.filter(function (r) {
            return (!confidence.value || r.getAttribute('data-confidence') === confidence.value)
                && (!kind.value || r.getAttribute('data-kind') === kind.value)
                && (!q || r.textContent.toLowerCase().indexOf(q) >= 0);
          });
          var per = +size.value;
          var pages = per ? Math.max(1, Math.ceil(shown.length / per)) : 1;
          page = Math.min(page, pages - 1);
          rows.forEach(function (r) { r.hidden = true; });
          shown.forEach(function (r, i) { r.hidden = per > 0 && (i < page * per || i >= (page + 1) * per); });
          var first = shown.length === 0 ? 0 : (per ? page * per : 0) + 1;
          var last = per ? Math.min(shown.length, (page + 1) * per) : shown.length;
          status.textContent = 'Showing ' + first + '\\u2013' + last + ' of ' + shown.length
              + (shown.length === rows.length ? '' : ' matching (of ' + rows.length + ')')
              + (pages > 1 ? ', page ' + (page + 1) + ' of ' + pages : '');
          prev.disabled = page === 0;
          next.disabled = page >= pages - 1;
        }
        function again() { page = 0; render(); }
        confidence.addEventListener('change', again);
        kind.addEventListener('change', again);
        size.addEventListener('change', again);
        text.addEventListener('input', again);
        prev.addEventListener('click', function () { page--; render(); });
        next.addEventListener('click', function () { page++; render(); });
        table.addEventListener('sorted', render);
        render();
      })();
      """;

  /** The Content-Security-Policy source that allows exactly {@link #SOURCE}. */
  static final String CSP_HASH = "'sha256-" + sha256(SOURCE) + "'";

  private static String sha256(String s) {
    try {
      return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
