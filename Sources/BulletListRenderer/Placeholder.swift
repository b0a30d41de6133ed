// BulletListRenderer: under construction.
