"""`ktlog serve`: a read-only web view of the database (tables, a game, the stream overlay, the
replay, the league) that follows the event log and pushes each new event to its game's viewers.

`source` opens the database and words its problems, `follower` watches it for new events,
`tables` and `views` build the JSON objects, `pages` the HTML, `app` puts the routes together.
"""
