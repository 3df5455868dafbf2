"""Business rules. Each public function is one operation in one transaction; none knows HTTP."""
