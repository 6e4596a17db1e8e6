"""BANNERS: six achievements, each shown by a banner on the player board. The two-step banners
(black, blue, red, ocher: "require 2 actions/events") go face-down first and are flipped face-up by
the second achievement; green and purple are placed face-up at once (``scoring.banner_steps``).

Each achievement is detected where it happens and calls :func:`banner_step`: black at Load the Ship
paid with metal for a triplet (sim.actions.ship), green at the City Council track's maximum
(sim.council_vote.gain_council), purple on owning ``scoring.purple_banner_cards`` Affiliate cards
(:func:`purple_banner`, from sim.deck.gain_card), blue on winning a City Council vote
(sim.council_vote), red on winning a War (sim.war), ocher on joining a Major Building construction
that is built, then on joining another (sim.major_buildings; scoring.ocher_flip_on_join); card 53
buys one step (sim.affiliates). Face-up banners pay VP at each Scoring (sim.scoring, ruling R-13)
and each lets its owner ignore one Affiliate card at the Salary (sim.deck.salary_free):
:func:`face_up_banners`.
"""

from numba import njit

from sim.ai_choice import is_ai
from sim.codes import Ev
from sim.core import log
from sim.rules import RK
from sim.state import N_BANNERS, PF, Banner

FACE_DOWN = 1  # a banner's level in its PF.BANNER_* slot: 0 not gained, 1 face-down, 2 face-up
FACE_UP = 2


@njit(cache=True)
def banner_step(st, r, seat, b):
    """BANNERS: one achievement toward banner ``b`` (Banner): a two-step banner goes face-down, then
    face-up; a one-step banner face-up at once; a face-up banner stays. The Solo A.I. takes none
    ("A.I. don't take Banners")."""
    if is_ai(st, seat):
        return
    slot = PF.BANNER_BLACK + b
    lvl = st.pl[seat, slot]
    if lvl >= FACE_UP:
        return
    lvl = FACE_UP if r.banner_steps[b] == 1 else lvl + FACE_DOWN
    st.pl[seat, slot] = lvl
    log(st, Ev.BANNER, seat, b, lvl)


@njit(cache=True)
def face_up(st, seat, b):
    return st.pl[seat, PF.BANNER_BLACK + b] >= FACE_UP


@njit(cache=True)
def face_up_banners(st, seat):
    """The seat's face-up banners."""
    n = 0
    for b in range(N_BANNERS):
        n += face_up(st, seat, b)
    return n


@njit(cache=True)
def purple_banner(st, r, seat, n_cards):
    """Purple: "When a player owns 9 Affiliate cards" (``scoring.purple_banner_cards``); the seat
    now owns ``n_cards`` (sim.deck.gain_card asks whenever it gains one)."""
    if n_cards >= r.k[RK.PURPLE_BANNER_CARDS]:
        banner_step(st, r, seat, Banner.PURPLE)
