"""{% once %}: a piece of a template that is the same for everyone, drawn once per process.

    {% once user.is_authenticated %}<nav>...{% url 'lobby:tables' %}...</nav>{% endonce %}

The piece is drawn the first time and kept, one copy per active language
and per value of the tag's arguments (which must be few: a flag, never a
user). Everything inside must depend on nothing else: no user, no CSRF
token, no message, no nonce. The layout of every page has such pieces
(static file links, the site's menu, the footer), and drawing them costs
every signed-in page a tenth of its CPU.
"""

from django import template
from django.urls import get_script_prefix
from django.utils.translation import get_language

register = template.Library()

# Keyed by the node itself: a template loaded again (development) makes new nodes.
_drawn = {}


class OnceNode(template.Node):
    def __init__(self, nodelist, variants):
        self.nodelist = nodelist
        self.variants = variants

    def render(self, context):
        key = (self, get_language(), get_script_prefix())  # its links are the prefix's
        key += tuple(v.resolve(context) for v in self.variants)
        html = _drawn.get(key)
        if html is None:
            # Two threads may draw it at once: both draw the same, either is kept.
            html = _drawn[key] = self.nodelist.render(context)
        return html


@register.tag
def once(parser, token):
    variants = [parser.compile_filter(bit) for bit in token.split_contents()[1:]]
    nodelist = parser.parse(("endonce",))
    parser.delete_first_token()
    return OnceNode(nodelist, variants)
