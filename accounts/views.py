# Sign-up, login and profile views come here.
