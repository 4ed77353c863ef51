// ... existing code ...
enum rb_status {
	RB_OK = 0,
	RB_EMPTY = -1,
	RB_FULL = -2,
	RB_EINVAL = -3,
	RB_TOO_LONG = -4,
	RB_BUSY = -5,
};
// ... existing code ...
	case RB_TOO_LONG:
		return "line too long";
	case RB_BUSY:
		return "buffer busy";
	default:
		return "unknown error";
	}
}
