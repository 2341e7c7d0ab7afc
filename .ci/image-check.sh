#!/usr/bin/env bash
# The container image. Where a Docker engine runs and reaches the base images: build it from the
# Dockerfile, run it, and check /health, `gateway healthcheck` in it and the exit code of
# `docker stop`. Elsewhere (no engine, or no registry): run the binary the way the image's
# runtime stage does, as far as this machine can: only the shared libraries it links (glibc, as
# in gcr.io/distroless/cc-debian12), as user 65532, on a read-only root with a tmpfs /tmp and a
# writable /data, with the Dockerfile's environment, as PID 1 of its own PID namespace.
#
#   bash .ci/image-check.sh [dist/gateway]
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$(realpath "${1:-dist/gateway}")
admin="sk-gw-v1-image-check-admin-key-0123456789abcdef0123456789"
port=$(bun -e 'const s = Bun.serve({ port: 0, fetch: () => new Response() }); console.log(s.port); s.stop(true)')

wait_for() { # URL EXPECTED_STATUS
  for _ in $(seq 1 100); do
    test "$(curl -s -o /dev/null -w '%{http_code}' "$1")" = "$2" && return 0
    sleep 0.2
  done
  echo "timed out waiting for $2 from $1" >&2
  return 1
}

if docker info >/dev/null 2>&1 && docker build -t model-gateway:ci .; then
  cid=$(docker run -d -p "127.0.0.1:$port:8080" -e GATEWAY_ADMIN_KEY="$admin" model-gateway:ci)
  trap 'docker rm -f "$cid" >/dev/null 2>&1 || true' EXIT
  wait_for "http://127.0.0.1:$port/ready" 200
  test "$(curl -s "http://127.0.0.1:$port/health")" = '{"status":"ok"}'
  docker exec "$cid" /gateway healthcheck
  test "$(docker exec "$cid" /gateway version | cut -d' ' -f1)" = gateway
  docker stop -t 45 "$cid" >/dev/null
  test "$(docker inspect -f '{{.State.ExitCode}}' "$cid")" = 0
  echo "container image: built, /health answered, healthcheck 0, docker stop exited 0"
  exit 0
fi

if ! unshare --mount --pid --fork true 2>/dev/null; then
  echo "container image: no Docker engine and no mount namespaces here, not checked"
  exit 0
fi
echo "container image: no Docker engine (or no base images): checking the binary as the runtime stage runs it"

work=$(mktemp -d)
rootfs="$work/rootfs"
data="$work/data"
trap 'kill "$(cat "$work/pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$rootfs"/{etc,tmp,data,proc} "$data"
cp "$binary" "$rootfs/gateway"
# the shared libraries the binary links, and nothing else
for lib in $(ldd "$binary" | grep -o '/[^ ]*'); do
  mkdir -p "$rootfs$(dirname "$lib")"
  cp -L "$lib" "$rootfs$lib"
done
printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' >"$rootfs/etc/passwd"
printf 'root:x:0:\nnonroot:x:65532:\n' >"$rootfs/etc/group"
chown 65532:65532 "$data"

# inside a mount and PID namespace: the root read-only, /tmp a tmpfs, /data the volume; the
# command then runs chrooted as 65532 with the Dockerfile's ENV (and -e GATEWAY_ADMIN_KEY)
cat >"$work/in-container.sh" <<EOF
set -e
mount --bind "$rootfs" "$rootfs"
mount -o remount,bind,ro "$rootfs"
mount -t tmpfs tmpfs "$rootfs/tmp"
mount --bind "$data" "$rootfs/data"
mount -t proc proc "$rootfs/proc"
cd "$rootfs"
exec env -i PATH=/usr/sbin:/usr/bin:/bin HOST=0.0.0.0 PORT=$port DATABASE_URL=file:/data/gateway.db BUN_CONFIG_MAX_HTTP_REQUESTS=65535 GATEWAY_ADMIN_KEY=$admin \
  chroot --userspec=65532:65532 "$rootfs" /gateway "\$@"
EOF
in_container() { unshare --mount --pid --fork bash "$work/in-container.sh" "$@"; }

in_container serve >"$work/serve.log" 2>&1 &
echo $! >"$work/pid"
wait_for "http://127.0.0.1:$port/ready" 200
in_container healthcheck
test "$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $admin" "http://127.0.0.1:$port/api/v1/key")" = 200
# what it wrote is the unprivileged user's, in the volume
test "$(stat -c %u "$data/gateway.db")" = 65532
test "$(stat -c '%u %a' "$data/master.key")" = "65532 600"
# docker stop: SIGTERM to PID 1, which drains (/ready 503) and exits 0
gateway_pid=$(pgrep -f "^/gateway serve" | while read -r p; do grep -q "^NSpid:.*[[:space:]]1$" "/proc/$p/status" && echo "$p"; done | head -1)
test -n "$gateway_pid"
kill -TERM "$gateway_pid"
wait_for "http://127.0.0.1:$port/ready" 503
wait "$(cat "$work/pid")"
if in_container healthcheck 2>/dev/null; then echo "healthcheck passed after the stop" >&2; exit 1; fi
echo "container image (runtime stage imitated): /ready answered, healthcheck 0, files owned by 65532, SIGTERM to PID 1 drained and exited 0"
