"""`ktlog serve`: a read-only web view of the database (tables, a game, the stream overlay, the
replay, the league) that follows the event log and pushes each new event to its game's viewers.

`app` puts the routes together (`routes()`) with what they share on `app.state`; `handlers` is
each route; `guard` what every request passes (the Host, the method, the security headers, the
streams per address); `params` and `responses` read a request and word an answer; `source` reads
the database in a worker thread and words its problems; `follower` watches it for new events;
`league` works out the league page in a process of its own; `tables` and `views` build the JSON
objects, `pages` the HTML.
"""
