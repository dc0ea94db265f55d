# Keys that are public by design and say so by their prefix: shipped to browsers, they can only send events.
POSTHOG_API_KEY = "phc_Zx9Qw7Lm3Rt5Yu1Io8Pa2Sd4Fg6Hj0KlXc3VbN7mQ2"
posthog_client = Client(api_key="phc_Qw7Lm3Rt5Yu1Io8Pa2Sd4Fg6Hj0KlXc3VbN7mQ2Zx9")
STRIPE_PUBLISHABLE_KEY = "pk_live_51Zx9Qw7Lm3Rt5Yu1Io8Pa2Sd4Fg6Hj0KlXc3V"
