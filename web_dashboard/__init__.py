"""web_dashboard."""
