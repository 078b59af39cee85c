# Sourced by kvscope's scripts: finds a JDK 21+ and the JVM flags kvscope needs on it.
#
# Looks where Maven's toolchains plugin (select-jdk-toolchain) looks, so the launcher runs on the
# JDK the build used: JAVA_HOME, JAVAnn_HOME variables, `java` on the PATH, ~/.m2/toolchains.xml,
# then the usual install folders. JAVA_HOME wins when it is 21+; otherwise the newest JDK found.
#   kvscope_find_jdk      sets and exports JAVA_HOME, or returns 1
#   kvscope_jvm_flags     prints the flags for "$JAVA_HOME", one a line

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
  if [ -f "$HOME/.m2/toolchains.xml" ]; then
    sed -n 's:.*<jdkHome>\(.*\)</jdkHome>.*:\1:p' "$HOME/.m2/toolchains.xml"
  fi
  for dir in "$HOME/.jdks" "$HOME/.m2/jdks" "$HOME/.sdkman/candidates/java" "$HOME/.gradle/jdks" \
             "$HOME/.jenv/versions" "$HOME/.jbang/cache/jdks" "$HOME/.asdf/installs/java" "$HOME/.jabba/jdk" \
             /usr/jdk /usr/java /opt/java /usr/lib/jvm /Library/Java/JavaVirtualMachines \
             "$HOME/Library/Java/JavaVirtualMachines"; do
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
}
