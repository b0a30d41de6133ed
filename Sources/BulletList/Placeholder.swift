// BulletList: under construction.
