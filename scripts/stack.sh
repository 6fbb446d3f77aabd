#!/usr/bin/env bash
# A stack is the software under the runner: a root filesystem built from a distribution's packages
# (scripts/stacks/<name>.env), in which the unchanged runner runs with this checkout bind-mounted.
#
#   scripts/stack.sh build NAME [--test]   build .stacks/NAME/ once (as root, with mmdebstrap); --test adds
#                                          the stack's test packages (PHPUnit)
#   scripts/stack.sh run NAME CMD...       run CMD in the stack, in the checkout (mounted at /phpcb)
#   scripts/stack.sh path PATH             a path printed inside a stack, as the host sees it
#   scripts/stack.sh clean                 remove every built stack
#
# How it runs: `unshare --mount` gives the command a private mount namespace, in which the checkout,
# /proc, /dev, /sys (read-only), the host's machine-id and os-release are bind-mounted into the root,
# then `chroot`. Why not systemd-nspawn or a container: no daemon and no package beyond util-linux; the
# mounts vanish with the process, even when it is killed with -9, so nothing stays mounted on the host;
# and the runner stays in the host's process, network and cgroup namespaces, scheduled like the host's
# own PHP, so the two stacks' timings compare. The runner records the host's machine name (its
# /etc/machine-id), the host's OS (/run/host/os-release, systemd's convention) and this checkout's
# commit (PHPCB_GIT_COMMIT: the root has no git), and PHPCB_STACK names the stack.
set -euo pipefail

root_dir=$(cd "$(dirname "$0")/.." && pwd)
stacks_dir="$root_dir/.stacks"
inside=/phpcb

fail() {
  echo "error: $*" >&2
  exit 1
}

declaration() {
  local name=$1
  [[ "$name" =~ ^[a-z0-9]+([.-][a-z0-9]+)*$ ]] || fail "a stack name is lower-case letters and digits joined by - or ., got '$name'"
  local file="$root_dir/scripts/stacks/$name.env"
  if [ ! -f "$file" ]; then
    local known
    known=$(cd "$root_dir/scripts/stacks" && ls -1 -- *.env 2>/dev/null | sed 's/\.env$//' | tr '\n' ' ')
    fail "no stack '$name': expected scripts/stacks/$name.env (known: ${known:-none}; 'host' is this machine's own PHP)"
  fi
  # shellcheck disable=SC1090 # a stack file: plain assignments
  source "$file"
  : "${STACK_SUITE:?$file sets no STACK_SUITE}" "${STACK_PACKAGES:?$file sets no STACK_PACKAGES}"
  STACK_MIRROR=${STACK_MIRROR:-$STACK_MIRROR_DEFAULT}
}

# What a build was made of: a stack is rebuilt when its declaration asks for other packages.
wanted() {
  local test=$1
  echo "suite=$STACK_SUITE mirror=$STACK_MIRROR packages=$STACK_PACKAGES${test:+ test=$STACK_TEST_PACKAGES}"
}

mirror_reachable() {
  python3 - "$STACK_MIRROR/dists/$STACK_SUITE/Release" <<'PY'
import sys, urllib.request
try:
    with urllib.request.urlopen(sys.argv[1], timeout=20) as response:
        sys.exit(0 if response.status == 200 else 1)
except Exception as error:  # one line for the caller, whatever went wrong
    print(error, file=sys.stderr)
    sys.exit(1)
PY
}

build() {
  local name=$1 test=${2:-}
  declaration "$name"
  local target="$stacks_dir/$name"
  if [ -f "$target/built" ]; then
    local had
    had=$(sed -n 's/^wanted: //p' "$target/built")
    if [ "$had" = "$(wanted "$test")" ] || { [ -z "$test" ] && [ "$had" = "$(wanted 1)" ]; }; then
      echo "stack $name: built already ($(sed -n 's/^utc: //p' "$target/built")); make clean-stacks to rebuild" >&2
      return 0
    fi
  fi
  [ "$(id -u)" -eq 0 ] || fail "make stack needs root: mmdebstrap builds the root filesystem as root (run: sudo make stack STACK=$name)"
  command -v unshare >/dev/null 2>&1 || fail "make stack needs unshare (Debian package util-linux)"
  if ! command -v mmdebstrap >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 || fail "make stack needs mmdebstrap (Debian package mmdebstrap), and this is no Debian or Ubuntu"
    echo "installing Debian package mmdebstrap" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >&2 ||
      { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >&2; } ||
      fail "could not install mmdebstrap with apt-get"
  fi
  local unreachable
  unreachable=$(mirror_reachable 2>&1) || fail "cannot reach the Debian mirror $STACK_MIRROR (dists/$STACK_SUITE/Release: ${unreachable:0:200}): set STACK_MIRROR to one this machine reaches"
  local packages="$STACK_PACKAGES${test:+ $STACK_TEST_PACKAGES}"
  local work="$stacks_dir/.$name.building"
  rm -rf "$work" && mkdir -p "$work"
  echo "building stack $name: $STACK_DESCRIPTION, from $STACK_MIRROR ($packages)" >&2
  local started=$SECONDS
  mmdebstrap --variant=minbase --include="${packages// /,}" --quiet "$STACK_SUITE" "$work/root" "$STACK_MIRROR" >&2 ||
    { rm -rf "$work"; fail "mmdebstrap failed for stack $name (see above); nothing was kept"; }
  # Mount points for what the launcher binds in.
  mkdir -p "$work/root$inside" "$work/root/run/host"
  touch "$work/root/etc/machine-id" "$work/root/run/host/os-release"
  {
    echo "wanted: $(wanted "$test")"
    echo "utc: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "seconds: $((SECONDS - started))"
    chroot "$work/root" dpkg-query -W -f='package: ${Package} ${Version}\n' $packages
  } >"$work/built"
  rm -rf "$target" && mv "$work" "$target"
  echo "stack $name built in $((SECONDS - started)) s: $(du -sh "$target/root" | cut -f1) in $target" >&2
}

run_in() {
  local name=$1
  shift
  [ $# -gt 0 ] || fail "usage: scripts/stack.sh run NAME COMMAND..."
  declaration "$name"
  local root="$stacks_dir/$name/root"
  [ -f "$stacks_dir/$name/built" ] || fail "stack $name is not built: make stack STACK=$name"
  [ "$(id -u)" -eq 0 ] || fail "running in stack $name needs root (unshare --mount, chroot)"
  local commit
  commit=$(git -C "$root_dir" rev-parse HEAD 2>/dev/null || true)
  local machine_id=/etc/machine-id
  [ -s "$machine_id" ] || machine_id=/dev/null
  # The variables the runner reads (and a terminal's), nothing else of the host's environment.
  local variables=(PATH=/usr/local/bin:/usr/bin:/bin HOME=/root LANG=C.UTF-8 PHPCB_STACK="$name" PHPCB_GIT_COMMIT="$commit")
  local variable
  for variable in $(compgen -e | grep -E '^(PHPCB_[A-Z0-9_]+|TERM|COLUMNS)$' || true); do
    case "$variable" in PHPCB_STACK | PHPCB_GIT_COMMIT) ;; *) variables+=("$variable=${!variable}") ;; esac
  done
  exec unshare --mount --propagation private --fork -- /bin/sh -euc '
    root=$1 checkout=$2 inside=$3 machine_id=$4
    shift 4
    mount --bind "$checkout" "$root$inside"
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    mount --rbind -o ro /sys "$root/sys" 2>/dev/null || mount --rbind /sys "$root/sys"
    mount --bind -o ro "$machine_id" "$root/etc/machine-id"
    if [ -f /etc/os-release ]; then mount --bind -o ro /etc/os-release "$root/run/host/os-release"; fi
    cd "$root"
    exec chroot "$root" /usr/bin/env -i "$@"
  ' sh "$root" "$root_dir" "$inside" "$machine_id" "${variables[@]}" /bin/sh -c 'cd "$0" && exec "$@"' "$inside" "$@"
}

case "${1:-}" in
  build)
    [ $# -ge 2 ] || fail "usage: scripts/stack.sh build NAME [--test]"
    test=""
    [ "${3:-}" = "--test" ] && test=1
    build "$2" "$test"
    ;;
  run)
    [ $# -ge 3 ] || fail "usage: scripts/stack.sh run NAME COMMAND..."
    name=$2
    shift 2
    run_in "$name" "$@"
    ;;
  path)
    # A path the runner printed inside the stack, as the host sees it.
    [ $# -eq 2 ] || fail "usage: scripts/stack.sh path PATH"
    case "$2" in "$inside"/*) echo "$root_dir${2#"$inside"}" ;; *) echo "$2" ;; esac
    ;;
  clean)
    if [ -d "$stacks_dir" ]; then
      # A stack's root holds only files (its mounts live in namespaces that ended with their process).
      rm -rf --one-file-system "$stacks_dir"
      echo "removed $stacks_dir" >&2
    fi
    ;;
  *) fail "usage: scripts/stack.sh build NAME [--test] | run NAME COMMAND... | path PATH | clean" ;;
esac
