# ... existing code ...
readonly ROLLOUT_TIMEOUT="300s"
readonly SLACK_WEBHOOK="${SLACK_WEBHOOK:-}"
# ... existing code ...

notify() {
  local message="$1"
  if [[ -z "${SLACK_WEBHOOK}" ]]; then
    return 0
  fi
  run curl -fsS -X POST -H 'Content-Type: application/json' \
    --data "{\"text\": \"${message}\"}" "${SLACK_WEBHOOK}" >/dev/null || log "slack notification failed"
}

main() {
  # ... existing code ...
  rollout "${image}"
  log "deployed ${image} to ${ENVIRONMENT}"
  notify ":rocket: deployed ${image} to ${ENVIRONMENT}"
}

main "$@"
