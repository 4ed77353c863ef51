parse_args() {
  while [[ $# -gt 0 ]]; do
    case "$1" in
      -e|--env)
        ENVIRONMENT="$2"
        shift 2
        ;;
      --env=*)
        ENVIRONMENT="${1#*=}"
        shift
        ;;
      -t|--tag)
        TAG="$2"
        shift 2
        ;;
      --tag=*)
        TAG="${1#*=}"
        shift
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
