"""English irregular verbs, each inflected form to its base: the one lemmatisation a Snowball
stemmer cannot do ("won" and "winning", "said" and "says", "held" and "holding", "took" and
"takes", "began" and "beginning" share no stem).

A closed class, written out here rather than taken from a lexicon download (no data is
fetched at run time). Forms that are also common nouns or adjectives of another meaning are
left out on purpose, since a false match would call a claim supported: "found" (to found),
"ground", "wound", "lay"/"lain" (lie/lay), "rose", "saw", "felt", "bore"/"born"/"borne",
"thought", "bit", "lead" itself (the metal; "led" is kept).
"""

from __future__ import annotations

# base: its irregular past and participle forms (regular ones stem alike already)
_FORMS = """
arise arose arisen | awake awoke awoken | be | beat beaten | become became | begin began begun
bend bent | bind bound | bite bitten | bleed bled | blow blew blown | break broke broken
breed bred | bring brought | build built | burn burnt | buy bought | catch caught
choose chose chosen | cling clung | come came | creep crept | deal dealt | dig dug
draw drew drawn | dream dreamt | drink drank drunk | drive drove driven | eat ate eaten
fall fell fallen | feed fed | fight fought | flee fled | fling flung | fly flew flown
forbid forbade forbidden | forget forgot forgotten | forgive forgave forgiven
freeze froze frozen | get got gotten | give gave given | go went gone | grow grew grown
hang hung | hear heard | hide hid hidden | hold held | keep kept | know knew known
lead led | leave left | lend lent | lose lost | make made | mean meant | meet met
overcome overcame | overtake overtook overtaken | pay paid | rebuild rebuilt
rewrite rewrote rewritten | ride rode ridden | ring rang rung | rise risen | run ran
say said | seek sought | sell sold | send sent | shake shook shaken | shine shone
shoot shot | shrink shrank shrunk | sing sang sung | sink sank sunk | sit sat | sleep slept
slide slid | speak spoke spoken | spend spent | spin spun | spring sprang sprung | stand stood
steal stole stolen | stick stuck | sting stung | stride strode stridden | strike struck
strive strove striven | swear swore sworn | sweep swept | swim swam swum | swing swung
take took taken | teach taught | tear tore torn | tell told | think | throw threw thrown
understand understood | undertake undertook undertaken | wake woke woken | wear wore worn
weave wove woven | weep wept | win won | withdraw withdrew withdrawn | withhold withheld
write wrote written
"""

IRREGULAR: dict[str, str] = {
    form: group.split()[0]
    for group in _FORMS.replace("\n", " | ").split("|")
    if group.split()
    for form in group.split()[1:]
}


def base_form(low: str) -> str:
    """The verb's base form for an irregular past or participle ("won" -> "win"); any other
    word unchanged."""
    return IRREGULAR.get(low, low)
