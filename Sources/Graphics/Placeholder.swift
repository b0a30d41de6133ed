// Graphics: under construction.
