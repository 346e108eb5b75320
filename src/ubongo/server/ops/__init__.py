"""What keeps the server up and observable, apart from the game.

* :mod:`.clock` - the server's one time line; :mod:`.metrics` - ``/metrics``;
  :mod:`.logs` - structured log lines;
* :mod:`.ratelimit` - token buckets per connection, limits per address;
* :mod:`.security` - body limits, security headers, the WebSocket ``Origin`` check;
  :mod:`.transport` - the read deadline of HTTP requests;
* :mod:`.collector` - the garbage collector's schedule;
* :mod:`.strong_random` - unguessable tokens, codes and seeds (as :mod:`secrets`, fewer asks
  of the kernel).

May import: :mod:`..protocol`, :mod:`..config`.
"""
