# Written by rdbgen 0.1.0: valkey-server with the dataset of dump.rdb in /data, loaded at start-up.
FROM valkey/valkey:8.0
COPY --chown=999:999 dump.rdb /data/dump.rdb
LABEL io.rdbgen.version="0.1.0" io.rdbgen.rdb-version="9" io.rdbgen.persist="false" io.rdbgen.keys="3" io.rdbgen.checksum="00000000000000ff"
# No save points and appendonly off: the server never writes the dump back.
# Arguments after the image name in docker run are added to the server's.
ENTRYPOINT ["docker-entrypoint.sh","valkey-server","--dir","/data","--dbfilename","dump.rdb","--appendonly","no","--save","","--port","7000","--maxmemory","1gb","--requirepass","a \"quoted\" pass"]
CMD []
