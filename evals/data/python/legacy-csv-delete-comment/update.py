class Report:
    # ... existing code ...

    def error_rate(self):
        # ... existing code ...

    # remove to_legacy_csv, nothing calls it any more

    def to_dict(self, top=10):
        # ... existing code ...
