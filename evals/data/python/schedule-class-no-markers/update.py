@dataclass
class Schedule:
    name: str
    every: float
    payload: dict[str, Any] = field(default_factory=dict)
    queue: str = "default"
    next_run: float = 0.0
    paused: bool = False
    max_attempts: int = DEFAULT_MAX_ATTEMPTS
