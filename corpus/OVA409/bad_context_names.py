creds = "gjNfkppRYMJPbJXp5jqCTuvE"
adobeClientSecret = "muYVIapWtcPMjPspJUXEG8DQfs"
sourcegraph = "bbv807MkLqBgnviAHNWdT2wQY5vgYcY5"
meraki_api_key = "a4f1739d8748a775f6b5f33e114ad1458c96fe95"
token = os.environ.get("GITHUB_TOKEN", "g8PQAkYxNAkWjWYaqHKoHKuQX3eolc")
