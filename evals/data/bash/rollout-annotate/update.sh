# ... rest of the script unchanged above ...

rollout() {
  local image="$1"
  local namespace="web-${ENVIRONMENT}"
  local timeout="${ROLLOUT_TIMEOUT}"
  if [[ "${ENVIRONMENT}" == "production" ]]; then
    timeout="600s"
  fi
  log "rolling out ${image} to ${namespace}"
  run kubectl -n "${namespace}" set image deployment/web "web=${image}"
  run kubectl -n "${namespace}" annotate deployment/web \
    kubernetes.io/change-cause="deploy.sh ${TAG} by ${USER:-ci}" --overwrite
  if ! run kubectl -n "${namespace}" rollout status deployment/web --timeout="${timeout}"; then
    # ... unchanged rollback ...
  fi
}

# ... main unchanged ...
