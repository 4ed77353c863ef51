#!/usr/bin/env bash
# deploy.sh - build, push and roll out the web service to a Kubernetes cluster.
#
# Usage: deploy.sh [-e staging|production] [-t TAG] [--dry-run]

# ... existing code ...
TAG=""
DRY_RUN=0

log() {
# ... existing code ...
      --dry-run)
        DRY_RUN=1
        shift
        ;;
      -h|--help)
# ... existing code ...
run_tests() {
  log "running tests"
  (cd "${REPO_ROOT}" && run make test)
}
# ... existing code ...
