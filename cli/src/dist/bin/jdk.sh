# Sourced by kvscope's scripts: finds a JDK 21+ and the JVM flags kvscope needs on it.
#
# Looks where Maven's toolchains plugin (select-jdk-toolchain) looks, so the launcher runs on the
# JDK the build used: JAVA_HOME, JAVAnn_HOME variables, `java` on the PATH, ~/.m2/toolchains.xml,
# then the usual install folders. JAVA_HOME wins when it is 21+; otherwise the newest JDK found.
#   kvscope_find_jdk      sets and exports JAVA_HOME, or returns 1
#   kvscope_jvm_flags     prints the flags for "$JAVA_HOME", one a line
#   kvscope_exec JAR ARGS...   runs kvscope's JAR on "$JAVA_HOME" with those flags, KVSCOPE_JAVA_OPTS
#                         and the AOT cache's (below); exits with its status

kvscope_jdk_feature() { # JDK home -> its feature version (25 for 25.0.1), empty when not a JDK
  local home="$1" version=""
  [ -x "$home/bin/java" ] && [ -e "$home/bin/javac" ] || return 0
  if [ -f "$home/release" ]; then
    version="$(sed -n 's/^JAVA_VERSION="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$home/release")"
  fi
  if [ -z "$version" ]; then
    version="$("$home/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')"
  fi
  version="${version#1.}"
  echo "${version%%[.+-]*}"
}

kvscope_jdk_candidates() {
  local path dir
  # JAVA_HOME itself when it is older than 21 is read here too, and loses on its version.
  env | sed -n 's/^JAVA[0-9A-Za-z_]*_HOME=//p'
  if command -v java >/dev/null 2>&1; then
    path="$(readlink -f "$(command -v java)")"
    dirname "$(dirname "$path")"
  fi
  # A service account may run without HOME: then only the system-wide folders are looked in.
  local home="${HOME:-}" user_dirs=()
  if [ -n "$home" ]; then
    if [ -f "$home/.m2/toolchains.xml" ]; then
      sed -n 's:.*<jdkHome>\(.*\)</jdkHome>.*:\1:p' "$home/.m2/toolchains.xml"
    fi
    user_dirs=("$home/.jdks" "$home/.m2/jdks" "$home/.sdkman/candidates/java" "$home/.gradle/jdks"
               "$home/.jenv/versions" "$home/.jbang/cache/jdks" "$home/.asdf/installs/java" "$home/.jabba/jdk"
               "$home/Library/Java/JavaVirtualMachines")
  fi
  for dir in ${user_dirs[@]+"${user_dirs[@]}"} \
             /usr/jdk /usr/java /opt/java /usr/lib/jvm /Library/Java/JavaVirtualMachines; do
    [ -d "$dir" ] || continue
    for path in "$dir"/*; do
      echo "$path"
      echo "$path/Contents/Home"
    done
  done
}

kvscope_find_jdk() {
  local best="" best_feature=0 home feature
  if [ -n "${JAVA_HOME:-}" ] && [ "$(kvscope_jdk_feature "$JAVA_HOME")" -ge 21 ] 2>/dev/null; then
    export JAVA_HOME
    return 0
  fi
  while IFS= read -r home; do
    [ -n "$home" ] || continue
    feature="$(kvscope_jdk_feature "$home")"
    if [ -n "$feature" ] && [ "$feature" -ge 21 ] 2>/dev/null && [ "$feature" -gt "$best_feature" ]; then
      best="$home"; best_feature="$feature"
    fi
  done < <(kvscope_jdk_candidates)
  [ -n "$best" ] || return 1
  JAVA_HOME="$best"
  export JAVA_HOME
}

kvscope_jvm_flags() {
  # Arrow reads java.nio internals; JDK 23+ also asks that its sun.misc.Unsafe use be allowed,
  # an option JDK 21 and 22 refuse.
  echo "--add-opens=java.base/java.nio=ALL-UNNAMED"
  echo "--enable-native-access=ALL-UNNAMED"
  if [ "$(kvscope_jdk_feature "$JAVA_HOME")" -ge 23 ]; then
    echo "--sun-misc-unsafe-memory-access=allow"
  fi
  # C2's inlining bounds. InlineSmallCode: a callee already compiled is inlined only while that
  # code is under this many bytes (HotSpot's default: 2500 on x86-64). On an incident of a few
  # hundred MB C2 is a third of the job's CPU, over a third of that in a few dozen huge compilations
  # (Lucene's indexing chain and stored-fields reads inlined whole into their callers); with the
  # lower bound they stay small: 4-12% less CPU a job, the indexing and analysis threads no slower
  # (bench/README.md, "What C2 compiles"). FreqInlineSize and MaxInlineSize: the bytecode size of a
  # hot and of a cold callee still inlined (defaults 325 and 35); lower, 3-8% less CPU a job, its
  # working threads no slower (bench/README.md, "The inlining pair decided"). Each is left out
  # when KVSCOPE_JAVA_OPTS sets it, since the last occurrence of a JVM flag wins.
  local flag flags=(-XX:InlineSmallCode=1000 -XX:FreqInlineSize=200 -XX:MaxInlineSize=20)
  # Tier 2's count checks. A method the AOT cache's profiles (JDK 25+, JEP 515) saw compiled by C2
  # goes from C1's counting code (tier 2) into C2's queue at tier 2's first count check, every 2^11
  # calls or 2^14 loop turns, with no threshold and whatever C2's backlog: 86% of C2's requests on a
  # 0.25x incident, and what keeps its queue hundreds long through the ingest. Checks 4 times rarer
  # leave to C1 what runs only a few thousand times: 0.6-2.6 CPU s less a job, most of it C2's
  # (bench/README.md, "The C2 queue on two cores"). Not given on JDK 21-24, whose caches hold no
  # profiles: there tier 2 holds other methods, which was not measured. Each, like the bounds, is left
  # out when KVSCOPE_JAVA_OPTS sets it.
  if [ "$(kvscope_jdk_feature "$JAVA_HOME")" -ge 25 ]; then
    flags+=(-XX:Tier2InvokeNotifyFreqLog=13 -XX:Tier2BackedgeNotifyFreqLog=16)
  fi
  for flag in "${flags[@]}"; do
    case " ${KVSCOPE_JAVA_OPTS:-} " in
      *" ${flag%%=*}="*) ;;
      *) echo "$flag" ;;
    esac
  done
  # The collector. On a machine of at most two cores G1's write barriers and refinement threads cost
  # the threads that do kvscope's work more than its parallel collections save: the serial collector
  # took 0.3-1.0 CPU s (2-4%) off every job measured, its wall the same (bench/README.md, "The serial
  # collector on two cores"). With more cores G1 stays, since a serial collection stops every writer
  # thread for a single-threaded pause. Left out when KVSCOPE_JAVA_OPTS chooses a collector.
  local option
  for option in ${KVSCOPE_JAVA_OPTS:-}; do
    case "$option" in -XX:+Use*GC) return 0 ;; esac
  done
  [ "$(kvscope_cores)" -gt 2 ] 2>/dev/null || echo "-XX:+UseSerialGC"
}

kvscope_cores() { # the processors this shell may run on
  nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1
}

# The JDK's AOT cache (JDK 25+: JEP 483 classes loaded and linked, JEP 515 method profiles, JEP 514
# its flags). Each kvscope run is a fresh JVM that otherwise loads, verifies and profiles Lucene's
# classes again, and about a third of a mid-sized ingest's CPU went to that and to the JIT
# (bench/README.md, "The JVM's start-up work"). The first successful run of a heavy command on a
# build records what it loaded (AOTMode=record) and the launcher then writes the cache
# (AOTMode=create); later runs of that command on that build map it. A cache belongs to one jar
# (its path, size and time, and its lib/'s), one JDK and one command (analyze given inputs and analyze of an index are two); a rebuild or another JDK
# simply uses another file, and the JVM itself refuses a cache whose class path changed, then runs
# as if it had none. Kept owner-only under ${XDG_CACHE_HOME:-~/.cache}/kvscope/aot; off with
# KVSCOPE_AOT=0.
#   kvscope_aot JAR ARGS...   sets kvscope_aot_flags (JVM flags for this run) and kvscope_aot_record
#                             (a configuration this run records, to hand to kvscope_aot_create; empty
#                             when the run records nothing)
#   kvscope_aot_create JAR FLAGS...   writes the cache from what the run recorded (FLAGS: the run's
#                             own JVM flags), quietly; never fails

kvscope_exec() {
  local jar="$1" flags status=0
  shift
  mapfile -t flags < <(kvscope_jvm_flags)
  kvscope_aot "$jar" "$@"
  # shellcheck disable=SC2086 # KVSCOPE_JAVA_OPTS is a list of options
  if [ -z "$kvscope_aot_record" ]; then
    exec "$JAVA_HOME/bin/java" ${KVSCOPE_JAVA_OPTS:-} "${flags[@]}" "${kvscope_aot_flags[@]}" -jar "$jar" "$@"
  fi
  # This run records for the AOT cache, which is written once the run has ended well.
  # shellcheck disable=SC2086
  "$JAVA_HOME/bin/java" ${KVSCOPE_JAVA_OPTS:-} "${flags[@]}" "${kvscope_aot_flags[@]}" -jar "$jar" "$@" || status=$?
  if [ $status = 0 ]; then kvscope_aot_create "$jar" "${flags[@]}"; else rm -f "$kvscope_aot_record"; fi
  exit $status
}

# scope's own JVM runs the analysis on the job's index (the job runs in a JVM of its own): the JIT
# was 44% of that step's CPU without a cache (bench/README.md, "Spark: the driver's analysis by phase").
kvscope_aot_commands=" ingest analyze analyse audit demo scope "
# analyze's options that take no value (LauncherScriptsTest holds the list to the command's own);
# any other option takes the next word, unless written --option=value.
kvscope_analyze_flags=" --reveal -q --quiet -h --help -V --version "

kvscope_aot_kind() { # analyze's ARGS... -> the kind of run a cache is recorded for
  # analyze given inputs ingests them in the same JVM and loads a third more classes (the
  # writers, the parsers) than analyze of an index alone: each kind gets a cache of its own, or
  # whichever ran first would leave the other a cache that misses much of what it loads.
  local arg after=0 value=0
  for arg in "$@"; do
    if [ $after = 0 ]; then
      case "$arg" in analyze | analyse) after=1 ;; esac
    elif [ $value = 1 ]; then
      value=0
    else
      case "$arg" in
        --*=*) ;;
        -*) case "$kvscope_analyze_flags" in *" $arg "*) ;; *) value=1 ;; esac ;;
        *) echo "analyze-inputs"; return ;;
      esac
    fi
  done
  echo "analyze"
}

kvscope_aot() {
  local jar="$1" command="" arg dir key files cache
  shift
  kvscope_aot_flags=()
  kvscope_aot_record=""
  [ "${KVSCOPE_AOT:-1}" != 0 ] || return 0
  [ "$(kvscope_jdk_feature "$JAVA_HOME")" -ge 25 ] 2>/dev/null || return 0
  case " ${KVSCOPE_JAVA_OPTS:-} " in *" -XX:AOT"* | *" -XX:SharedArchiveFile"*) return 0 ;; esac
  for arg in "$@"; do
    case "$arg" in
      -h | --help | -V | --version | help) return 0 ;;
      -*) ;;
      *) [ -n "$command" ] || command="$arg" ;;
    esac
  done
  case "$kvscope_aot_commands" in *" $command "*) ;; *) return 0 ;; esac
  case "$command" in analyze | analyse) command="$(kvscope_aot_kind "$@")" ;; esac
  if [ -n "${XDG_CACHE_HOME:-}" ]; then
    dir="$XDG_CACHE_HOME/kvscope/aot"
  elif [ -n "${HOME:-}" ]; then
    dir="$HOME/.cache/kvscope/aot"
  else
    return 0
  fi
  # Owner-only: the JVM maps the class data a cache holds, and its profiles tell what ran.
  (umask 077 && mkdir -p "$dir") 2>/dev/null && [ -O "$dir" ] && chmod 700 "$dir" 2>/dev/null || return 0
  files=("$jar" "$(dirname "$jar")"/lib/*.jar)
  # The jar's folder in the name keeps two checkouts from evicting each other's caches.
  key="$command-$(printf '%s' "$(dirname "$jar")" | cksum | cut -d' ' -f1)"
  key="$key-$( { sed -n 's/^JAVA_RUNTIME_VERSION=//p' "$JAVA_HOME/release" 2>/dev/null; echo "$JAVA_HOME";
    stat -L -c '%n %s %Y' "${files[@]}" 2>/dev/null || stat -L -f '%N %z %m' "${files[@]}" 2>/dev/null; } \
    | cksum | cut -d' ' -f1)"
  cache="$dir/$key.aot"
  # Warnings about a cache the JVM cannot use (another JVM option, a changed jar) would go to stdout.
  kvscope_aot_flags=("-Xlog:aot*=off" "-Xlog:cds*=off")
  if [ -f "$cache" ]; then
    kvscope_aot_flags+=("-XX:AOTCache=$cache")
  elif [ ! -e "$dir/$key.failed" ]; then
    kvscope_aot_record="$dir/$key.$$.conf"
    # The JVM says at exit where it recorded, on its own output: stderr, so stdout stays kvscope's.
    kvscope_aot_flags+=("-XX:AOTMode=record" "-XX:AOTConfiguration=$kvscope_aot_record" "-XX:+DisplayVMOutputToStderr")
  fi
}

kvscope_aot_create() {
  local jar="$1" conf="$kvscope_aot_record" cache tmp
  shift
  [ -n "$conf" ] && [ -f "$conf" ] || return 0
  cache="${conf%.*.conf}.aot"
  tmp="${conf%.conf}.aot"
  if "$JAVA_HOME/bin/java" ${KVSCOPE_JAVA_OPTS:-} "$@" "-Xlog:aot*=off" "-Xlog:cds*=off" -XX:AOTMode=create \
      "-XX:AOTConfiguration=$conf" "-XX:AOTCache=$tmp" -cp "$jar" >/dev/null 2>&1 && [ -s "$tmp" ]; then
    chmod 600 "$tmp" && mv -f "$tmp" "$cache"
    # Caches of this command and checkout for earlier builds or JDKs are never used again.
    local old
    for old in "${cache%-*}"-*.aot "${cache%-*}"-*.failed; do
      [ "$old" = "$cache" ] || rm -f "$old"
    done
  else
    (umask 077 && : > "${cache%.aot}.failed") # not tried again on this build
  fi
  rm -f "$conf" "$tmp"
  # What runs killed before their end recorded (a configuration is as large as a cache).
  find "$(dirname "$cache")" -maxdepth 1 -name '*.conf' -mmin +1440 -delete 2>/dev/null
  return 0
}
