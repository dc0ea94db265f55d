"""Test fixtures in ordinary code: typed stand-ins are not credentials outside published values."""
import http.cookies

USERS = {"alice": 'password = "hunter2"', "bob": "token: abc123"}
DSN = "postgres://app:s3cr3t_pw@localhost/app"
HEADER = "Authorization: Bearer token"


def test_cookie():
    jar = http.cookies.SimpleCookie("chips=ahoy; vienna=finger; CUSTOMER=WILE_E_COYOTE")
    assert jar["chips"].value == "ahoy"
