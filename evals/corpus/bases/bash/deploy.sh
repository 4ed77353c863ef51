#!/usr/bin/env bash
# deploy.sh - build, push and roll out the web service to a Kubernetes cluster.
#
# Usage: deploy.sh [-e staging|production] [-t TAG] [--dry-run] [--skip-tests]

set -euo pipefail

readonly SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
readonly REPO_ROOT="$(cd "${SCRIPT_DIR}/.." && pwd)"
readonly REGISTRY="${REGISTRY:-registry.acme.internal}"
readonly IMAGE_NAME="web"
readonly ROLLOUT_TIMEOUT="300s"

ENVIRONMENT="staging"
TAG=""
DRY_RUN=0
SKIP_TESTS=0

log() {
  printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2
}

die() {
  log "error: $*"
  exit 1
}

usage() {
  sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//'
  exit "${1:-0}"
}

run() {
  if [[ "${DRY_RUN}" -eq 1 ]]; then
    log "dry-run: $*"
  else
    "$@"
  fi
}

parse_args() {
  while [[ $# -gt 0 ]]; do
    case "$1" in
      -e|--env)
        ENVIRONMENT="$2"
        shift 2
        ;;
      -t|--tag)
        TAG="$2"
        shift 2
        ;;
      --dry-run)
        DRY_RUN=1
        shift
        ;;
      --skip-tests)
        SKIP_TESTS=1
        shift
        ;;
      -h|--help)
        usage 0
        ;;
      *)
        log "unknown argument: $1"
        usage 2
        ;;
    esac
  done

  case "${ENVIRONMENT}" in
    staging|production) ;;
    *) die "environment must be staging or production, got '${ENVIRONMENT}'" ;;
  esac
}

require_tools() {
  local tool
  for tool in docker kubectl git; do
    command -v "${tool}" >/dev/null 2>&1 || die "missing required tool: ${tool}"
  done
}

default_tag() {
  local sha
  sha="$(git -C "${REPO_ROOT}" rev-parse --short=12 HEAD)"
  if [[ -n "$(git -C "${REPO_ROOT}" status --porcelain)" ]]; then
    sha="${sha}-dirty"
  fi
  echo "${sha}"
}

run_tests() {
  if [[ "${SKIP_TESTS}" -eq 1 ]]; then
    log "skipping tests"
    return 0
  fi
  log "running tests"
  (cd "${REPO_ROOT}" && run make test)
}

build_image() {
  local image="$1"
  log "building ${image}"
  run docker build \
    --pull \
    --build-arg "GIT_SHA=${TAG}" \
    -t "${image}" \
    "${REPO_ROOT}"
}

push_image() {
  local image="$1"
  log "pushing ${image}"
  run docker push "${image}"
}

rollout() {
  local image="$1"
  local namespace="web-${ENVIRONMENT}"
  log "rolling out ${image} to ${namespace}"
  run kubectl -n "${namespace}" set image deployment/web "web=${image}"
  if ! run kubectl -n "${namespace}" rollout status deployment/web --timeout="${ROLLOUT_TIMEOUT}"; then
    log "rollout failed, rolling back"
    run kubectl -n "${namespace}" rollout undo deployment/web
    die "deployment of ${image} failed"
  fi
}

main() {
  parse_args "$@"
  require_tools
  TAG="${TAG:-$(default_tag)}"
  if [[ "${ENVIRONMENT}" == "production" && "${TAG}" == *-dirty ]]; then
    die "refusing to deploy a dirty tree to production"
  fi

  local image="${REGISTRY}/${IMAGE_NAME}:${TAG}"
  run_tests
  build_image "${image}"
  push_image "${image}"
  rollout "${image}"
  log "deployed ${image} to ${ENVIRONMENT}"
}

main "$@"
