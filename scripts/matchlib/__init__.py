"""Engine-vs-engine match library used by scripts/match.py.

Modules:
  stats       -- Elo, confidence intervals, LOS, pentanomial statistics, SPRT
  timecontrol -- time-control parsing and clock bookkeeping (with a margin)
  usi_shogi   -- a small USI client and the shogi game loop (cshogi rules)
  uci_chess   -- the chess game loop over python-chess' UCI engine driver
  openings    -- opening-book readers (USI "startpos moves"/SFEN lines, EPD/FEN)
  records     -- CSA and PGN record writers
  spins       -- the spin options an engine declares (the SPSA drivers' check)
"""
