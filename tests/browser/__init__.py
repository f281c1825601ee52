"""The built site as readers meet it: a real Chromium against a real build served on loopback."""
