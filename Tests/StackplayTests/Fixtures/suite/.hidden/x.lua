error("hidden files never run")
