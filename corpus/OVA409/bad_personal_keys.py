# The secret counterpart is reported: a PostHog personal key.
POSTHOG_PERSONAL_API_KEY = "phx_Zx9Qw7Lm3Rt5Yu1Io8Pa2Sd4Fg6Hj0KlXc3VbN7mQ2"
