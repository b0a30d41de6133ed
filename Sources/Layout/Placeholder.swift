// Layout: under construction.
