"""Facts about the site as a whole, computed from the pages: the question table and learning order
(`catalog`), URLs as MkDocs computes them (`site_urls`), where downloads live (`downloads`), the
licences (`licences`), and the time the pages last changed (`source_time`)."""
