"""Background work: the worker loop (deliveries, automations, announcements) and retention."""
