#!/usr/bin/env bash
# Builds a corpus file for 'kvscope generate --corpus' from another public set of real questions
# and real models' answers, so the quality gate can run on text other than the development corpus.
# The text is read from a checkout at run time and never kept in this repository.
#
#   bench/corpus-from.sh alpaca-eval CHECKOUT OUT.jsonl [MODEL...]
#   bench/corpus-from.sh alignbench CHECKOUT OUT.jsonl
#
# alpaca-eval: github.com/tatsu-lab/alpaca_eval (Apache-2.0), results/<model>/model_outputs.json:
#   the same 805 instructions answered by each model; MODELs default to gpt4_1106_preview
#   claude-2.1 Mixtral-8x7B-Instruct-v0.1.
# alignbench: github.com/THUDM/AlignBench (Apache-2.0), data/data_v1.1_release.jsonl: 683 Chinese
#   questions with one reference answer each (text without spaces between words).
# CHECKOUT may be a bare clone: files are read with 'git show HEAD:PATH' when not on disk. Needs jq.
set -euo pipefail
usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 3 ] || usage
source="$1"
checkout="$2"
out="$3"
shift 3
command -v jq >/dev/null || { echo "corpus-from: needs jq" >&2; exit 2; }

# A file of the checkout, from its work tree or its HEAD commit.
read_file() {
  if [ -f "$checkout/$1" ]; then
    cat "$checkout/$1"
  else
    git -C "$checkout" show "HEAD:$1" || { echo "corpus-from: no $1 in $checkout" >&2; exit 2; }
  fi
}

case "$source" in
  alpaca-eval)
    models=("$@")
    [ ${#models[@]} -gt 0 ] || models=(gpt4_1106_preview claude-2.1 Mixtral-8x7B-Instruct-v0.1)
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    files=()
    for m in "${models[@]}"; do
      read_file "results/$m/model_outputs.json" >"$tmp/$m.json"
      files+=("$tmp/$m.json")
    done
    # One line per instruction, answers keyed by model; the files must list the instructions in
    # the same order (an instruction that differs between them stops the script).
    jq -s -c --argjson names "$(printf '%s\n' "${models[@]}" | jq -R . | jq -s .)" '
      . as $files
      | range(0; $files[0] | length) as $i
      | ($files[0][$i].instruction) as $q
      | if any($files[]; .[$i].instruction != $q) then error("instruction \($i) differs between files") else . end
      | {id: ($i | tostring), set: "alpaca_eval", topic: $files[0][$i].dataset, turns: [$q],
         answers: ([range(0; $names | length) as $m | {key: $names[$m], value: [$files[$m][$i].output]}]
                   | from_entries)}' "${files[@]}" >"$out"
    ;;
  alignbench)
    read_file data/data_v1.1_release.jsonl | jq -c '{id: (.question_id | tostring), set: "alignbench",
      topic: .subcategory, turns: [.question], answers: {reference: [.reference]}}' >"$out"
    ;;
  *) usage ;;
esac
echo "corpus-from: $(wc -l <"$out") questions from $source -> $out" >&2
